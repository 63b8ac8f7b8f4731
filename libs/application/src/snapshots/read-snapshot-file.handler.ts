import type { RefusalDetails } from '@palimpsest/core/errors/refusal-details';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { checkWorkspacePath } from '@palimpsest/core/workspace/workspace-path';
import type { AppContext } from '../app-context';
import { noWorkspace } from '../file-tools/file-tool-answers';
import { linesOf } from '../file-tools/read-file/file-lines';
import { pathRefusalAnswer } from '../shared/workspace-text';
import { captureLatest, readDisk, type CaptureMode } from './capture-snapshot';
import { diskStateOf } from './disk-state';
import { snapshotBytes } from './snapshot-bytes';
import { findSnapshot, isLatest } from './snapshot-lookup';

export interface ReadSnapshotFileInput {
  snapshot: string;
  path: string;
  offset?: number;
  limit?: number;
}

type SnapshotPathRefusal = RefusalDetails & { status: 'not_found'; code: 'path_not_in_snapshot' | 'snapshot_content_unavailable'; failure_detail: string; path: string; snapshot: string };

const notInSnapshot = (path: string, snapshot: string): SnapshotPathRefusal => ({
  status: 'not_found',
  code: 'path_not_in_snapshot',
  path,
  snapshot,
  failure_detail: `${JSON.stringify(path)} is not a file of ${snapshot} (it did not exist, was ignored or was not a regular file when the snapshot was captured). Read latest, or list the snapshot's files with palimpsest_snapshot_status and palimpsest_open_snapshot.`,
  next_actions: [{ operation: OP.list_files, reason: 'See the files on disk now', params: { recursive: true } }],
});

const unavailable = (path: string, snapshot: string): SnapshotPathRefusal => ({
  status: 'not_found',
  code: 'snapshot_content_unavailable',
  path,
  snapshot,
  failure_detail: `${JSON.stringify(path)} was not bound to a target when ${snapshot} was captured, and it has changed on disk since: its bytes then are not in the log. Read it as it is now (read_file); to keep a file's versions readable, edit it through Palimpsest (edit_file, write_file) before capturing.`,
  next_actions: [{ operation: OP.read_file, reason: 'Read the file as it is now', params: { path } }],
});

/**
 * palimpsest_read_snapshot_file: a file as a snapshot holds it, sliced into lines as read_file does, its
 * bytes from the log where the log has them, else from the disk while it still holds them (snapshot-bytes.ts).
 * snapshot.disk says which paths changed since.
 */
export async function readSnapshotFile(ctx: AppContext, input: ReadSnapshotFileInput, mode: CaptureMode) {
  const root = ctx.workspace;
  if (!root) return noWorkspace(OP.palimpsest_read_snapshot_file);
  const check = checkWorkspacePath(input.path);
  if (check.kind === 'refused') return pathRefusalAnswer(check.refusal, 'path');
  const path = check.value.path;
  const named = isLatest(input.snapshot) ? null : await findSnapshot(ctx, root, input.snapshot);
  if (named && !named.ok) return named.answer;
  const disk = await readDisk(ctx, root);
  if (!disk.ok) return disk.answer;
  // `latest` is the files now: captured like an open of it.
  const { data, position } = named ? named.snapshot : (await captureLatest(ctx, root, disk.capture, mode)).snapshot;
  const file = data.files.find((f) => f.path === path);
  if (!file) return notInSnapshot(path, data.snapshot);
  const read = await snapshotBytes(ctx, root, file);
  if (!read) return unavailable(path, data.snapshot);
  return linesOf(path, read.bytes, input, {
    file: { sha256: file.sha256, source: read.source, target_file_id: file.target_file_id, version: file.version, ...(read.as_of ? { as_of: read.as_of } : {}) },
    snapshot: { id: data.snapshot, log_sequence: position, disk: diskStateOf(data.files, disk.capture.files) },
  });
}
