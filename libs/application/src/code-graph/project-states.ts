import { sha256Hex } from '@palimpsest/core/text/sha256';
import type { CodeGraphEngine, CodeGraphView, GraphNode, ProjectState } from '@palimpsest/core/structure/code-graph.port';
import { readWorkspaceFileBounded } from '@palimpsest/workspace/workspace-file-reader';
import { snapshotRoot, type SnapshotFile } from '@palimpsest/core/snapshot/snapshot-root';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { diskFiles } from '../snapshots/disk-files';

/**
 * The project states the code graph answers from: a workspace snapshot's TypeScript, JavaScript and Python
 * files, path → SHA-256 of their bytes, named by the snapshot's handle (the `sha256:` Merkle root of every
 * file, snapshot-root.ts), so a graph answer, a snapshot read and workspace/status name the same state.
 * `latest` is a capture of the disk now (its hashes from the root's stamp cache: only files whose stamp
 * changed are read), so an accepted change (published to its file) re-hashes and re-indexes that file
 * alone. The last states are kept by handle: a read of an earlier snapshot answers from that state.
 */

export interface NamedState {
  /** The workspace snapshot handle. */
  id: string;
  state: ProjectState;
}

/** Where a state's texts come from when the disk no longer holds them (a recorded snapshot's log). */
export type TextFallback = (path: string, hash: string) => Promise<string | null>;

const KEPT_STATES = 16;

export class CodeGraphStates {
  private readonly kept = new Map<string, ProjectState>();

  constructor(readonly engine: CodeGraphEngine) {}

  /** The files on disk now (recorded nowhere: the handlers record the capture they name). */
  async latest(root: WorkspaceRoot): Promise<NamedState> {
    const disk = await diskFiles(root);
    if (!disk.ok) throw new Error(disk.answer.failure_detail);
    return this.ofFiles(snapshotRoot(disk.files), disk.files);
  }

  /** A state named by an earlier answer while it is kept, else null. */
  byId(id: string): NamedState | null {
    const state = this.kept.get(id);
    return state ? { id, state } : null;
  }

  /** A snapshot's files (a capture, or a recorded snapshot): its code files, kept under its handle. */
  ofFiles(handle: string, files: readonly SnapshotFile[]): NamedState {
    const known = this.kept.get(handle);
    if (known) {
      this.kept.delete(handle);
      this.kept.set(handle, known);
      return { id: handle, state: known };
    }
    const state: ProjectState = new Map(files.filter((f) => this.engine.languageOf(f.path)).map((f) => [f.path, f.sha256]));
    this.kept.set(handle, state);
    if (this.kept.size > KEPT_STATES) this.kept.delete(this.kept.keys().next().value!);
    return { id: handle, state };
  }

  /** Texts not indexed yet are read from the disk while it holds their hash, else from `fallback`; none: SnapshotTextUnavailable. */
  view(root: WorkspaceRoot | null, named: NamedState, fallback?: TextFallback): Promise<CodeGraphView> {
    return this.engine.view(named.state, async (path, hash) => {
      const bytes = root ? await bytesOf(root, path) : null;
      if (bytes !== null && sha256Hex(bytes) === hash) return bytes.toString('utf8');
      const text = fallback ? await fallback(path, hash) : null;
      if (text === null) throw new SnapshotTextUnavailable(path);
      return text;
    });
  }

  /** A node's text, from its file as the state holds it (null when the file on disk is no longer that content). */
  async bodyOf(root: WorkspaceRoot | null, named: NamedState, node: GraphNode): Promise<string | null> {
    if (!root) return null;
    const bytes = await bytesOf(root, node.path);
    if (!bytes || sha256Hex(bytes) !== named.state.get(node.path)) return null;
    const lines = bytes.toString('utf8').split('\n').slice(node.range.start.line - 1, node.range.end.line);
    if (lines.length === 0) return '';
    const cp = (s: string) => Array.from(s);
    lines[lines.length - 1] = cp(lines[lines.length - 1]).slice(0, node.range.end.column - 1).join('');
    lines[0] = cp(lines[0]).slice(node.range.start.column - 1).join('');
    return lines.join('\n');
  }
}

/** A file of a state whose bytes neither the disk nor the log holds any more. */
export class SnapshotTextUnavailable extends Error {
  constructor(readonly path: string) {
    super(`${path}: the bytes this snapshot holds are neither on disk nor in the log`);
  }
}

/** A file's bytes through the workspace's path rules (no link followed, nothing Palimpsest keeps), or null. */
async function bytesOf(root: WorkspaceRoot, path: string): Promise<Buffer | null> {
  const read = await readWorkspaceFileBounded(root, path);
  return read.kind === 'read' ? read.bytes : null;
}
