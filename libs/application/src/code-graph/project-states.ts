import { createHash } from 'node:crypto';
import { sha256Hex } from '@palimpsest/core/text/sha256';
import type { CodeGraphEngine, CodeGraphView, GraphNode, ProjectState } from '@palimpsest/core/structure/code-graph.port';
import { readWorkspaceFileBounded } from '@palimpsest/workspace/workspace-file-reader';
import { fileStamp, walkWorkspace, type FileStamp } from '@palimpsest/workspace/workspace-listing';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';

/**
 * The project states the code graph answers from: a map path → SHA-256 of the content of the workspace's
 * TypeScript, JavaScript and Python files, identified by `sha256:` of its sorted (path, hash) lines.
 * `latest` walks the workspace and re-hashes only the files whose size, mtime or inode changed since the
 * last walk, so an accepted change (published to its file) re-hashes and re-indexes that file alone. The
 * last states are kept by id: a read of an earlier snapshot answers from that state, not from the disk.
 */

export interface NamedState {
  id: string;
  state: ProjectState;
}

/** A file's stamp and the hash of the bytes read under it. */
type Stamp = FileStamp & { hash: string };

const KEPT_STATES = 16;

export function stateId(state: ProjectState): string {
  const h = createHash('sha256');
  for (const path of [...state.keys()].sort()) h.update(`${path}\0${state.get(path)}\n`);
  return `sha256:${h.digest('hex')}`;
}

export class CodeGraphStates {
  private readonly stamps = new Map<string, Stamp>();
  private readonly kept = new Map<string, ProjectState>();
  /** Texts read while hashing, handed to the engine when it indexes their hash (then dropped). */
  private readonly pending = new Map<string, string>();

  constructor(readonly engine: CodeGraphEngine) {}

  /** The files on disk now. */
  async latest(root: WorkspaceRoot): Promise<NamedState> {
    const walk = walkWorkspace(root, undefined, { recursive: true, sizes: false });
    if (walk.kind === 'refused') throw new Error(`the workspace root cannot be walked: ${walk.refusal.code}`);
    // Stamped while the walk holds each directory: one lstat per file, no second trip through the thread pool.
    const files: { path: string; stamp: FileStamp }[] = [];
    try {
      for (const entry of walk.entries) {
        if (entry.type !== 'file' || !this.engine.languageOf(entry.path)) continue;
        const stamp = fileStamp(root, entry);
        if (stamp) files.push({ path: entry.path, stamp });
      }
    } finally {
      walk.entries.return();
    }
    const state = new Map<string, string>();
    for (const { path, stamp } of files) {
      const hash = await this.hashOf(root, path, stamp);
      if (hash) state.set(path, hash);
    }
    return this.remember(state);
  }

  /** A state named by an earlier answer, or null when it is no longer kept. */
  byId(id: string): NamedState | null {
    const state = this.kept.get(id);
    return state ? { id, state } : null;
  }

  /** A state given as a map (another component's snapshot): kept and named like a walked one. */
  remember(state: ProjectState): NamedState {
    const id = stateId(state);
    const known = this.kept.get(id);
    if (known) {
      this.kept.delete(id);
      this.kept.set(id, known);
      return { id, state: known };
    }
    this.kept.set(id, state);
    if (this.kept.size > KEPT_STATES) this.kept.delete(this.kept.keys().next().value!);
    return { id, state };
  }

  view(root: WorkspaceRoot | null, named: NamedState): Promise<CodeGraphView> {
    return this.engine.view(named.state, async (path, hash) => {
      const text = this.pending.get(hash);
      this.pending.delete(hash);
      if (text !== undefined) return text;
      if (!root) throw new Error(`no text for ${path} (${hash})`);
      const bytes = await bytesOf(root, path);
      if (bytes === null || sha256Hex(bytes) !== hash) throw new Error(`${path} changed on disk before its snapshot was indexed; read latest again`);
      return bytes.toString('utf8');
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

  /** `s`: the file's stamp from the walk (an lstat: never a link put in the file's place; the read below refuses one anyway). */
  private async hashOf(root: WorkspaceRoot, path: string, s: FileStamp): Promise<string | null> {
    const known = this.stamps.get(path);
    if (known && known.size === s.size && known.mtimeMs === s.mtimeMs && known.ino === s.ino) return known.hash;
    const bytes = await bytesOf(root, path);
    if (bytes === null) return null;
    const hash = sha256Hex(bytes);
    const text = bytes.toString('utf8');
    this.stamps.set(path, { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, hash });
    this.pending.set(hash, text);
    if (this.pending.size > 4096) this.pending.delete(this.pending.keys().next().value!);
    return hash;
  }
}

/** A file's bytes through the workspace's path rules (no link followed, nothing Palimpsest keeps), or null. */
async function bytesOf(root: WorkspaceRoot, path: string): Promise<Buffer | null> {
  const read = await readWorkspaceFileBounded(root, path);
  return read.kind === 'read' ? read.bytes : null;
}
