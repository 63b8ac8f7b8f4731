import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createBenchDatabase } from './bench-database';
import { fileChanges, linesOf, type FileChange, type Hunk } from './commit-hunks';
import { connectStdioTools, REPO_ROOT, textBytes, type StdioTools } from './mcp-stdio-client';
import { envNumber, nowMs } from './stats';

/**
 * A scripted agent reproducing real commits through the file tools alone, over MCP stdio: this
 * repository's own history (the hunks of its oldest commits' .ts and .md changes, read from .git at
 * bench time), each hunk sent as an agent would send it, following only what the answers say. Ours is
 * `palimpsest mcp --profile files`; the baseline is the same script over
 * @modelcontextprotocol/server-filesystem, which edits the first match silently.
 *
 *   npm run build && node dist/bench/file-tools-agent.js
 *   BENCH_AGENT_COMMITS=10 node dist/bench/file-tools-agent.js                 (a small sample)
 *
 * The agent's edit: oldString = the hunk's removed lines (nothing more, as an agent sends the lines it
 * changes); when those are all trivial (blank, a brace) or the hunk only inserts, the nearest
 * non-trivial line above (else below) is added to both strings, as an agent anchors an insertion.
 * With BENCH_AGENT_NEAR_LINE=1 (the default) it also sends near_line, the line it read oldString on.
 * On a refusal it sends the edit_file call the answer offers for its line (or the closest text), else
 * near_line when the answer asks for it, else follows the read_file it offers and widens oldString by a
 * line each side (at most five times), and as a last resort writes the whole file with write_file.
 * Each edit is checked against the intended text: one that changed another place is counted as landed
 * at the wrong place (and the file is set right, uncounted, so the next edit starts from the intended text).
 *
 * With DATABASE_URL, ours runs on a fresh PostgreSQL database created there (dropped after); else PGlite.
 * Env: BENCH_AGENT_COMMITS (oldest commits taken, default 40: about 400 hunks), BENCH_AGENT_NEAR_LINE (1),
 * BENCH_AGENT_REPO (the repository read, default this checkout).
 */

const CLI_BIN = join(REPO_ROOT, 'apps', 'cli', 'bin', 'palimpsest.js');
const FS_SERVER = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const MAX_WIDENINGS = 5;

interface Edit {
  oldString: string;
  newString: string;
  /** 1-based line oldString starts on in the current text. */
  line: number;
  /** The text once the hunk has landed where meant. */
  intended: string;
  /** Lines of context the agent added above and below the changed ones. */
  up: number;
  down: number;
}

const trivial = (line: string) => line.trim().length < 4;

/** The edit an agent sends for `hunk` on the current text (`shift`: lines earlier hunks of the file added). */
export function agentEdit(current: string[], after: string[], hunk: Hunk, shift: number, widen = 0): Edit {
  const first = hunk.oldCount > 0 ? hunk.oldStart - 1 + shift : hunk.oldStart + shift;
  const end = first + hunk.oldCount;
  const removed = current.slice(first, end);
  const added = hunk.newCount > 0 ? after.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newCount) : [];
  let up = 0;
  let down = 0;
  if (hunk.oldCount === 0 || removed.every(trivial)) {
    const above = [1, 2, 3].find((k) => first - k >= 0 && !trivial(current[first - k]!));
    const below = [0, 1, 2].find((k) => end + k < current.length && !trivial(current[end + k]!));
    if (above !== undefined) up = above;
    else if (below !== undefined) down = below + 1;
    else if (first > 0) up = 1;
    else if (end < current.length) down = 1;
  }
  up = Math.min(first, up + widen);
  down = Math.min(current.length - end, down + widen);
  const before = current.slice(first - up, first).join('');
  const following = current.slice(end, end + down).join('');
  let oldString = before + removed.join('') + following;
  let newString = before + added.join('') + following;
  if (oldString.endsWith('\n') && newString.endsWith('\n')) {
    oldString = oldString.slice(0, -1);
    newString = newString.slice(0, -1);
  }
  const intended = [...current.slice(0, first), ...added, ...current.slice(end)].join('');
  return { oldString, newString, line: first - up + 1, intended, up, down };
}

interface Tally {
  hunks: number;
  landed: number;
  wrongPlace: number;
  failed: number;
  writeFileFallbacks: number;
  calls: number;
  bytes: number;
  ms: number;
  refusedFirst: number;
  filesDiffering: number;
  /** The largest refusal's text, in bytes. */
  largestRefusal: number;
}

const tally = (): Tally => ({ hunks: 0, landed: 0, wrongPlace: 0, failed: 0, writeFileFallbacks: 0, calls: 0, bytes: 0, ms: 0, refusedFirst: 0, filesDiffering: 0, largestRefusal: 0 });

class Agent {
  readonly t = tally();
  constructor(
    readonly tools: StdioTools,
    readonly dir: string,
    readonly pathOf: (path: string) => string,
  ) {}

  async call(name: string, args: Record<string, unknown>) {
    const t0 = nowMs();
    const r = await this.tools.call(name, args);
    this.t.ms += nowMs() - t0;
    this.t.calls++;
    this.t.bytes += textBytes(r);
    if (r.isError || r.structuredContent?.status === 'rejected') this.t.largestRefusal = Math.max(this.t.largestRefusal, textBytes(r));
    return r;
  }

  disk = (path: string) => (existsSync(join(this.dir, path)) ? readFileSync(join(this.dir, path), 'utf8') : null);

  /** Outside the agent's calls: the file as the commit found it, or as intended after a misplaced edit. */
  setDisk(path: string, text: string) {
    if (this.disk(path) === text) return;
    mkdirSync(dirname(join(this.dir, path)), { recursive: true });
    writeFileSync(join(this.dir, path), text);
  }

  /** The hunk landed where meant (true), somewhere else (false: counted, then set right), or not at all (null). */
  settle(path: string, edit: Edit, ok: boolean): void {
    const now = this.disk(path);
    if (ok && now === edit.intended) this.t.landed++;
    else if (ok) this.t.wrongPlace++;
    else this.t.failed++;
    this.setDisk(path, edit.intended);
  }
}

/** Ours: edit_file, following the answer's next actions. */
async function oursHunk(a: Agent, path: string, edit0: Edit, widenFrom: (widen: number) => Edit, nearLine: boolean): Promise<void> {
  let edit = edit0;
  let args: Record<string, unknown> = { path, oldString: edit.oldString, newString: edit.newString, ...(nearLine ? { near_line: edit.line } : {}) };
  let widen = 0;
  for (let attempt = 0; attempt < MAX_WIDENINGS + 4; attempt++) {
    const r = (await a.call('edit_file', args)).structuredContent ?? {};
    if (r.status === 'ok') return a.settle(path, edit, true);
    if (attempt === 0) a.t.refusedFirst++;
    if (r.status !== 'rejected') break;
    const actions: { operation: string; reason: string; params: Record<string, unknown> }[] = r.next_actions ?? [];
    const meant = edit.line;
    const offered = actions.find((x) => x.operation === 'edit_file' && (r.failure_reason !== 'match_ambiguous' || new RegExp(`line ${meant}$`).test(x.reason)));
    if (offered) {
      args = offered.params;
      continue;
    }
    const context = (r.occurrences as { line: number; before: string; after: string }[] | undefined)?.find((o) => o.line === meant);
    if (context) {
      args = { path, oldString: context.before + edit.oldString + context.after, newString: context.before + edit.newString + context.after };
      continue;
    }
    if (args.near_line === undefined && String(r.failure_detail).includes('near_line')) {
      args = { ...args, near_line: meant };
      continue;
    }
    const read = actions.find((x) => x.operation === 'read_file');
    if (read) await a.call('read_file', read.params);
    if (++widen > MAX_WIDENINGS) break;
    edit = widenFrom(widen);
    args = { path, oldString: edit.oldString, newString: edit.newString, ...(nearLine ? { near_line: edit.line } : {}) };
  }
  a.t.writeFileFallbacks++;
  const w = (await a.call('write_file', { path, content: edit0.intended })).structuredContent;
  a.settle(path, edit0, w?.status === 'ok');
}

/** The filesystem server: one edit_file, which replaces the first match. */
async function fsHunk(a: Agent, path: string, edit: Edit): Promise<void> {
  const r = await a.call('edit_file', { path: a.pathOf(path), edits: [{ oldText: edit.oldString, newText: edit.newString }] });
  a.settle(path, edit, !r.isError);
}

async function replay(changes: FileChange[], agent: Agent, run: (path: string, edit: Edit, widen: (w: number) => Edit) => Promise<void>): Promise<void> {
  for (const c of changes) {
    agent.setDisk(c.path, c.before);
    const after = linesOf(c.after);
    let current = linesOf(c.before);
    let shift = 0;
    for (const hunk of c.hunks) {
      const lines = current;
      const s = shift;
      const edit = agentEdit(lines, after, hunk, s);
      agent.t.hunks++;
      await run(c.path, edit, (w) => agentEdit(lines, after, hunk, s, w));
      current = linesOf(edit.intended);
      shift += hunk.newCount - hunk.oldCount;
    }
    if (agent.disk(c.path) !== c.after) agent.t.filesDiffering++;
  }
}

function row(name: string, t: Tally, base: Tally | null): string {
  const per = (x: number) => x / Math.max(1, t.landed);
  const ratio = (x: number, y: number) => (base ? `${(x / y).toFixed(2)}×` : '');
  const calls = per(t.calls);
  const bytes = per(t.bytes);
  const baseCalls = base ? base.calls / Math.max(1, base.landed) : 0;
  const baseBytes = base ? base.bytes / Math.max(1, base.landed) : 0;
  return `| ${name} | ${t.hunks} | ${t.landed} | ${t.wrongPlace} | ${t.failed} | ${t.writeFileFallbacks} | ${t.refusedFirst} | ${calls.toFixed(3)} ${ratio(calls, baseCalls)} | ${bytes.toFixed(0)} ${ratio(bytes, baseBytes)} | ${(t.ms / 1000).toFixed(1)} s ${ratio(t.ms, base?.ms ?? 1)} | ${t.largestRefusal} | ${t.filesDiffering} |`;
}

async function main(): Promise<void> {
  if (!existsSync(join(REPO_ROOT, 'dist', 'apps', 'cli', 'src', 'main.js'))) throw new Error('run npm run build first');
  const repo = process.env.BENCH_AGENT_REPO || REPO_ROOT;
  const commits = Math.round(envNumber('BENCH_AGENT_COMMITS', 40));
  const nearLine = envNumber('BENCH_AGENT_NEAR_LINE', 1) !== 0;
  const changes = fileChanges(repo, commits);
  const tmp = mkdtempSync(join(tmpdir(), 'palimpsest-bench-agent-'));
  const oursDir = join(tmp, 'ours');
  const theirsDir = join(tmp, 'theirs');
  mkdirSync(oursDir);
  mkdirSync(theirsDir);
  const adminUrl = process.env.DATABASE_URL;
  const database = adminUrl ? await createBenchDatabase(adminUrl) : null;
  const backend = database ? 'PostgreSQL' : 'PGlite';
  const env: Record<string, string> = { PALIMPSEST_WORKSPACE_ROOT: oursDir, ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '', PALIMPSEST_DATA_DIR: join(tmp, 'pglite') }) };
  const ours = await connectStdioTools('palimpsest mcp --profile files', [CLI_BIN, 'mcp', '--profile', 'files'], env);
  const theirs = await connectStdioTools('server-filesystem', [FS_SERVER, theirsDir], {});
  try {
    const started = nowMs();
    const fs = new Agent(theirs, theirsDir, (p) => join(theirsDir, p));
    await replay(changes, fs, (path, edit) => fsHunk(fs, path, edit));
    const fsWall = nowMs() - started;
    const oursAgent = new Agent(ours, oursDir, (p) => p);
    await replay(changes, oursAgent, (path, edit, widen) => oursHunk(oursAgent, path, edit, widen, nearLine));
    const oursWall = nowMs() - started - fsWall;
    console.log(
      `file-tools agent: ${changes.length} file changes of the ${commits} oldest commits of ${repo} (${oursAgent.t.hunks} hunks); ours on ${backend}, near_line ${nearLine ? 'sent' : 'not sent'}; ` +
        `node ${process.version}, ${cpus().length} CPUs, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}; wall ${(oursWall / 1000).toFixed(1)} s ours, ${(fsWall / 1000).toFixed(1)} s filesystem`,
    );
    console.log('| agent over | hunks | landed where meant | landed at the wrong place | not landed | write_file fallbacks | refused at first | calls per landed edit (vs baseline) | answer bytes per landed edit (vs baseline) | time in calls (vs baseline) | largest refusal (bytes) | files not byte-exact |');
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    console.log(row('server-filesystem (baseline)', fs.t, null));
    console.log(row('palimpsest --profile files', oursAgent.t, fs.t));
  } finally {
    await ours.close();
    await theirs.close();
    await database?.drop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
