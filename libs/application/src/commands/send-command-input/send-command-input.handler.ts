import { createHash } from 'node:crypto';
import type { AppContext } from '../../app-context';
import type { HandlerSession } from '../../dispatch/operation-handler';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { callerPolicy } from '../shared/begin-run';
import { forbidden, noProcesses, notRunning } from '../shared/command-answers';
import { endedRun, isRefusal } from '../shared/ended-run';

export interface SendCommandInputInput {
  processId: string;
  data: string;
  newline?: boolean;
}

/**
 * send_command_input: the policy decides the input like a command (under an allow list it is refused);
 * what is written is recorded by digest and size, never as text.
 */
export async function sendCommandInput(ctx: AppContext, input: SendCommandInputInput, session: HandlerSession): Promise<Result<OP.send_command_input>> {
  const processes = ctx.commands.processes;
  if (!processes) return noProcesses(OP.send_command_input);
  const run = ctx.commands.runs.get(input.processId);
  if (!run) {
    const ended = await endedRun(ctx, input.processId);
    return isRefusal(ended) ? ended : notRunning(input.processId, ended.how);
  }
  const text = input.newline === false ? input.data : `${input.data}\n`;
  const running = [...ctx.commands.runs.values()].filter((r) => r.process.running).map((r) => r.process.command);
  const decision = await ctx.commands.gate.decideInput(text, running, callerPolicy(session));
  if (decision.verdict === 'refuse') return forbidden(decision.rule, decision.reason, null);
  const bytes = Buffer.from(text, 'utf8');
  const written = await run.process.write(bytes);
  if (written === null) return notRunning(input.processId);
  await run.record.record({ type: 'RecordInput', sha256: createHash('sha256').update(bytes).digest('hex'), bytes: written, rule: decision.rule });
  return { status: 'ok', processId: input.processId, bytesWritten: written };
}
