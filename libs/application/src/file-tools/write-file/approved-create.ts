import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { canonicalizeUpload } from '@palimpsest/core/text/canonical-text';
import { contentTypeOf } from '@palimpsest/core/text/content-type';
import type { AppContext } from '../../app-context';
import { createTarget } from '../../initialize-target/create-target';
import type { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { proposeAndApply, type WriteCaller } from '../shared/approved-write';
import type { FileTarget } from '../shared/file-target';
import { createdAnswer } from '../shared/write-receipt';
import { eolOfContent } from './create-file';

type Absent = Extract<FileTarget, { kind: 'absent' }>;

/**
 * write_file of a new path under a policy that asks for approvals (seed 004: a person confirms anything
 * that changes something). The file's target is created first, empty and bound to no file, so there is
 * something to ask about: the whole text is proposed on it as a candidate and applied under the caller's
 * policy (ApprovalRequested, the wait, progress). On a grant the apply creates the file with the content
 * byte for byte (no-clobber) and binds the target to it in the outcome transaction (created-files.ts):
 * the target's ledger then holds version 0 (empty, the request) and version 1 (the file). A decline or a
 * timeout is a final answer; the empty target stays, unbound, as the record of what was asked.
 */
export async function approvedCreate(ctx: AppContext, t: Absent, content: string, caller: WriteCaller & { policy: OwnerPolicy }): Promise<Result<OP.write_file>> {
  const created = await createTarget(ctx, { filename: t.path, content: '', content_type: contentTypeOf(t.path) });
  if (created.kind === 'refused') return { ...created.answer, argument: 'path', path: t.path };
  const targetId = created.target.target_id;
  const bytes = Buffer.from(content, 'utf8');
  const eol = eolOfContent(content);
  const file = { target_id: targetId, path: t.path, bytes, content_eol: eol, style: canonicalizeUpload(content).sourceLineEndings.style };
  const request = { targetId, version: 0, path: t.path, intent: `write_file ${t.path} (new file)` };
  const applied = await proposeAndApply(ctx, request, { kind: 'replace_all', replacement: content }, caller, [file]);
  if (applied.kind === 'answer') return applied.answer;
  return createdAnswer(t.path, targetId, { ...applied.written, bytes_written: bytes.length, content_eol: eol }, applied);
}
