import type { AppContext } from '@palimpsest/application/app-context';
import { unifiedDiff } from '@palimpsest/application/file-tools/shared/unified-diff';
import { foldTextAt } from '@palimpsest/application/history/as-of/text-as-of';
import type { Outcome } from '@palimpsest/protocol/outcome';

/** The tools whose effect the project's record shows by request id: each write commits with it as its correlation id. */
export const RECONCILED_TOOLS: ReadonlySet<string> = new Set(['edit_file', 'write_file']);

interface Accepted {
  event_type: 'ProposalAccepted' | 'TargetInitialized';
  data: { target_id: string; attempt_id?: string; before_version?: number; after_version?: number; after_hash?: string; current_hash?: string };
  xid: string;
}

interface JournalFile {
  path: string;
  target_id: string;
  disk_sha256?: string;
  bytes_written?: number;
  content_eol?: 'lf' | 'crlf' | 'cr';
}

/**
 * A write (edit_file, write_file) this executor started for `requestId` and never answered (killed in the
 * middle, or its run threw): whether it applied, from the project's own record. The file tools commit a
 * write's acceptance (or a new file's target) with the request id as its correlation id, in the very
 * transaction that completes its publication; and a journal a killed process left open is settled when the
 * store opens (a write's journal is rolled back: its acceptance never committed). So an acceptance on the
 * record is a write that applied, answered here as the tool answered it, rebuilt from the record (the
 * acceptance, its publication, the text before and after); none is a write that did not apply (null).
 */
export async function recordedWrite(ctx: AppContext, requestId: string, tool: string): Promise<Outcome | null> {
  const { rows } = await ctx.db.query<Accepted>(
    `SELECT event_type, data, transaction_xid::text AS xid FROM events
      WHERE metadata->>'correlation_id' = $1 AND event_type IN ('ProposalAccepted', 'TargetInitialized')
      ORDER BY global_position DESC LIMIT 1`,
    [requestId],
  );
  const accepted = rows[0];
  if (!accepted) return null;
  const targetId = accepted.data.target_id;
  const journal = await ctx.db.query<{ journal_id: string; completed: JournalFile[]; started: JournalFile[] }>(
    `SELECT c.data->>'journal_id' AS journal_id, c.data->'files' AS completed, s.data->'files' AS started
       FROM events c JOIN events s ON s.stream_id = c.stream_id AND s.event_type = 'PublicationStarted'
      WHERE c.transaction_xid = $1::xid8 AND c.event_type = 'PublicationCompleted'`,
    [accepted.xid],
  );
  const j = journal.rows[0];
  const done = j?.completed.find((f) => f.target_id === targetId);
  const planned = j?.started.find((f) => f.target_id === targetId);
  if (!j || !done || !planned) throw new Error(`${tool} ${requestId}: an acceptance on the record without the publication that committed it`);
  const created = accepted.event_type === 'TargetInitialized';
  const version = created ? 0 : accepted.data.after_version!;
  const audit = {
    target_file_id: targetId,
    attempt_id: created ? null : accepted.data.attempt_id!,
    version,
    current_hash: created ? accepted.data.current_hash! : accepted.data.after_hash!,
    disk_sha256: done.disk_sha256!,
    content_eol: planned.content_eol ?? 'lf',
    // What the record of this write shows: a binding or an outside change taken in first is a transaction of its own.
    bound_now: created,
    external_attempt_id: null,
    journal: { id: j.journal_id, state: 'committed' as const },
  };
  if (tool === 'write_file') return { status: 'ok', path: done.path, bytesWritten: done.bytes_written!, created, ...audit } as Outcome;
  const before = await foldTextAt(ctx, targetId, accepted.data.before_version!);
  const after = await foldTextAt(ctx, targetId, version);
  return { status: 'ok', path: done.path, replacements: 1, diff: unifiedDiff(done.path, before, after), ...audit } as Outcome;
}
