import { invalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { textDefect } from '@palimpsest/core/text/encoding';
import { PROTOCOL } from '@palimpsest/core/transaction/transaction.types';
import type { AppContext } from '../../app-context';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { fileTargetOf } from '../shared/file-target';
import { approvedWrite, needsApproval, type WriteCaller } from '../shared/approved-write';
import { guardedWrite, type GuardedChange } from '../shared/guarded-write';
import { auditFields } from '../shared/write-receipt';
import { approvedCreate } from './approved-create';
import { createFile } from './create-file';

export interface WriteFileInput {
  path: string;
  content: string;
}

/**
 * write_file (seed 004): a new file is created with its parents (create-file.ts); an existing one is a
 * guarded tx/3 whole replacement of its target, written back in the file's recorded line-ending style.
 * bytesWritten is the bytes on disk. Under a policy that asks for approvals a replacement waits for an
 * operator's grant (approved-write.ts), and so does creating one (approved-create.ts).
 */
export async function writeFile(ctx: AppContext, input: WriteFileInput, caller?: WriteCaller): Promise<Result<OP.write_file>> {
  const t = await fileTargetOf(ctx, input.path);
  if (t.kind === 'answer') return t.answer;
  if (t.kind === 'absent') {
    if (textDefect(input.content)) return invalidArgument('invalid_text_encoding', 'content must be valid UTF-8 text without NUL characters or unpaired surrogates.', { argument: 'content' });
    return needsApproval(caller) ? approvedCreate(ctx, t, input.content, caller) : createFile(ctx, t, input.content, caller?.correlationId ?? null);
  }
  const change: GuardedChange = { tool: OP.write_file, protocol: PROTOCOL.tx3, proposal: { intent: `write_file ${t.path}`, replacement: input.content }, correlation_id: caller?.correlationId ?? null };
  const outcome = needsApproval(caller) ? await approvedWrite(ctx, t, change, { kind: 'replace_all', replacement: input.content }, caller) : await guardedWrite(ctx, t, change);
  if (outcome.kind === 'rejected') return outcome.rejection.detailed();
  if (outcome.kind !== 'written') return outcome.answer;
  return { status: 'ok', path: t.path, bytesWritten: outcome.written.bytes_written, created: false, ...auditFields(t, outcome.written, outcome.after) };
}
