import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { CheckOutcome } from '@palimpsest/core/candidate/candidate.commands';
import type { CommandCheckDef } from '@palimpsest/core/policy/policy-config';
import type { CandidateText } from '../shared/target-texts';

/**
 * An operator-declared command check: the candidate's files are written to a fresh temporary
 * directory, the program runs there with a minimal environment, a timeout and bounded output, and
 * its exit status is the verdict. argv checks never touch a shell (spawn with shell: false); a shell
 * line runs only when both the check and the caller's policy allow a shell.
 */

function applies(def: CommandCheckDef, t: CandidateText): boolean {
  const byExt = def.extensions?.some((ext) => t.filename.toLowerCase().endsWith(ext.toLowerCase())) ?? null;
  const byType = def.content_types?.some((type) => t.content_type.toLowerCase() === type.toLowerCase()) ?? null;
  if (byExt === null && byType === null) return true;
  return byExt === true || byType === true;
}

function safeName(t: CandidateText): string {
  const name = basename(t.filename.replace(/\\/g, '/')).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return name === '' ? t.target_id : name;
}

/** Writes each file under its own name (or under a directory named by its target when names collide). */
async function writeFiles(dir: string, texts: CandidateText[]): Promise<string[]> {
  const seen = new Set<string>();
  const paths: string[] = [];
  for (const t of texts) {
    let rel = safeName(t);
    if (seen.has(rel)) {
      await mkdir(join(dir, t.target_id), { recursive: true });
      rel = join(t.target_id, rel);
    }
    seen.add(rel);
    await writeFile(join(dir, rel), t.text, 'utf8');
    paths.push(rel);
  }
  return paths;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function invocation(def: CommandCheckDef, dir: string, files: string[]): { file: string; args: string[]; shell: boolean } {
  if (def.argv) {
    const args = def.argv.flatMap((a) => (a === '{files}' ? files : [a.split('{dir}').join(dir)]));
    return { file: args[0], args: args.slice(1), shell: false };
  }
  const line = (def.command as string).split('{files}').join(files.map(shellQuote).join(' ')).split('{dir}').join(shellQuote(dir));
  return { file: line, args: [], shell: true };
}

class Capture {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    const room = this.limit - this.bytes;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    this.chunks.push(kept);
    this.bytes += kept.length;
  }

  text(): string {
    return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(this.chunks)).replace(/\u0000/g, '\ufffd');
  }
}

interface Exit {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  spawnError: string | null;
}

function run(def: CommandCheckDef, dir: string, files: string[], out: { stdout: Capture; stderr: Capture; path: string }): Promise<Exit> {
  const { stdout, stderr } = out;
  const { file, args, shell } = invocation(def, dir, files);
  const env = { PATH: out.path, LANG: 'C.UTF-8', HOME: dir, TMPDIR: dir };
  return new Promise((resolve) => {
    let child: ChildProcess;
    let timedOut = false;
    try {
      child = spawn(file, args, { cwd: dir, env, shell, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      resolve({ code: null, signal: null, timedOut, spawnError: (err as Error).message });
      return;
    }
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, def.timeout_ms);
    child.stdout?.on('data', (c: Buffer) => stdout.add(c));
    child.stderr?.on('data', (c: Buffer) => stderr.add(c));
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, timedOut, spawnError: err.message });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, spawnError: null });
    });
  });
}

/** The check's process group (it was started detached, as the leader of its own group). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

function verdict(exit: Exit): Pick<CheckOutcome, 'status' | 'ok' | 'reason'> {
  if (exit.spawnError !== null) return { status: 'unavailable', ok: false, reason: 'spawn_failed' };
  if (exit.timedOut) return { status: 'unavailable', ok: false, reason: 'timeout' };
  if (exit.code === 0) return { status: 'passed', ok: true, reason: null };
  return { status: 'failed', ok: false, reason: exit.signal ? 'signal' : 'exit_status' };
}

/** `path`: the PATH the command runs with (CandidateSettings.commandPath, read once at start). */
export async function runCommandCheck(def: CommandCheckDef, texts: CandidateText[], path: string): Promise<CheckOutcome> {
  const started = Date.now();
  const chosen = texts.filter((t) => applies(def, t));
  const dir = await mkdtemp(join(tmpdir(), 'palimpsest-check-'));
  try {
    const files = await writeFiles(dir, chosen);
    const stdout = new Capture(def.max_output_bytes);
    const stderr = new Capture(def.max_output_bytes);
    const exit = await run(def, dir, files, { stdout, stderr, path });
    const v = verdict(exit);
    return {
      check: def.name,
      kind: 'command',
      ...v,
      targets: chosen.map((t) => ({ target_id: t.target_id, ok: v.ok, message: null, line: null, column: null })),
      output: {
        exit_code: exit.code,
        signal: exit.signal,
        stdout: stdout.text(),
        stderr: exit.spawnError ?? stderr.text(),
        truncated: stdout.truncated || stderr.truncated,
        timed_out: exit.timedOut,
      },
      duration_ms: Date.now() - started,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
