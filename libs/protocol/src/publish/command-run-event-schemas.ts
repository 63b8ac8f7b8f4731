import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { JsonSchema } from '../catalog/operation-spec';
import { all, count, nullable, sha256, text, timestamp, uuid } from './event-schema-parts';
import { payloadSchemas } from './payload-schemas';

/**
 * JSON Schemas (2020-12) of the command-run stream's event payloads (stream `command-run-<run_id>`),
 * schema version 1, published beside the other events under schemas/events/.
 */

const killOutcome = { enum: ['gone', 'terminated', 'killed'], description: 'gone: nothing was left to signal; terminated: SIGTERM sufficed; killed: SIGKILL after the grace.' };

const decision = all({
  verdict: { enum: ['run', 'approve', 'refuse'] },
  rule: { ...nullable(text), description: 'What decided: a policy entry, a built-in option rule, or the mode.' },
  reason: nullable(text),
  argv: { ...nullable({ type: 'array', items: text }), description: 'The argv run without a shell, when the policy resolved one.' },
  shell: { ...nullable(text), description: 'The line handed to a shell, when the policy allows one.' },
});
const caller = all({ policy: nullable(text), profile: { enum: ['full', 'read-only'] }, correlation_id: nullable(text) });
const digest = all({ sha256: { ...sha256, description: 'SHA-256 of everything the stream wrote.' }, bytes: count, tail: { type: 'string', description: 'The stream\'s last bytes (at most 2,048), as text.' } });

const decidedSchema = all({ run_id: uuid, approval_id: uuid, decided_by: text, note: nullable(text), decided_at: timestamp });

const PAYLOADS: Record<string, [string, JsonSchema]> = {
  CommandRequested: ['A caller asked to run a command line; the owner policy\'s decision and the rule that decided it, recorded before anything runs.', all({
    run_id: uuid,
    tool: { enum: [OP.run_command, OP.start_command] },
    command: text,
    timeout_ms: nullable({ type: 'integer', minimum: 1 }),
    decision,
    caller,
    requested_at: timestamp,
  })],
  CommandRefused: ['The command did not run: the policy refused it, an approval was declined or timed out, no process slot was free, or it could not be spawned.', all({
    run_id: uuid,
    code: { enum: ['FORBIDDEN', 'APPROVAL_DECLINED', 'APPROVAL_TIMEOUT', 'too_many_processes', 'spawn_failed'] },
    rule: nullable(text),
    reason: text,
    refused_at: timestamp,
  })],
  CommandApprovalRequested: ['The policy asked a person to confirm the run; nothing runs before a decision.', all({
    run_id: uuid,
    approval_id: uuid,
    rule: { ...nullable(text), description: 'The rule that asked for the approval.' },
    prompt: { type: 'string', description: 'What the person is asked: the line and why the policy asks.' },
    requested_at: timestamp,
  })],
  CommandApproved: ['A person granted the run\'s approval; the run may start.', decidedSchema],
  CommandDeclined: ['A person declined the run\'s approval; the CommandRefused recorded with it ends the run.', decidedSchema],
  CommandStarted: ['The command runs at the workspace root as the leader of its own process group.', all({ run_id: uuid, pid: { type: 'integer', minimum: 1 }, pgid: { type: 'integer', minimum: 1 }, leader: { ...nullable(text), description: 'The leader\'s boot id and start time (`<boot id>:<clock ticks>`): a restart kills the group only while it is still this one.' }, started_at: timestamp })],
  CommandInputSent: ['Input was written to the running command\'s stdin: its digest and size, never the input.', all({ run_id: uuid, sha256, bytes: count, rule: nullable(text), sent_at: timestamp })],
  CommandKilled: ['The command\'s whole process group was stopped (SIGTERM, then SIGKILL within 2 s).', all({
    run_id: uuid,
    reason: { enum: [OP.kill_command, 'timeout', 'service_stop', 'crash_cleanup'] },
    outcome: killOutcome,
    killed_at: timestamp,
  })],
  CommandExited: ['The command ended: its exit code or signal, how long it ran, and each stream\'s digest, size and last bytes.', all({
    run_id: uuid,
    exit_code: nullable({ type: 'integer' }),
    signal: nullable(text),
    duration_ms: count,
    stdout: digest,
    stderr: digest,
    exited_at: timestamp,
  })],
};

export function commandRunEventSchemas(base: string): Record<string, JsonSchema> {
  return payloadSchemas(base, PAYLOADS);
}
