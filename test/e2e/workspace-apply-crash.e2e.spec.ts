import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '@palimpsest/store/open-db';
import { readStoreConfig } from '@palimpsest/store/store-config';
import { CRASH_POINTS, CRASH_POINT_ENV, type CrashPointName } from '@palimpsest/testing/crash-point';
import { CLI_BIN, REPO_ROOT, isolatedStore } from '../support/cli-process';
import { connectMcp, type McpSession } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/**
 * A two-file candidate apply killed (SIGKILL) at every crash point of the publication, each in its own
 * real CLI process; then a fresh process reconciles at start and the same change_apply, resent with the
 * same request_id, applies the candidate once. One store and one workspace for every point (one candidate
 * and two files each), so that the setup and the checks run in one `palimpsest mcp` process each.
 */

interface Point {
  name: Point_;
  request_id: string;
  candidate: string;
  /** The candidate's two files in install order (ascending target id), with their old and new bytes. */
  files: { path: string; target: string; old: string; new: string }[];
}

/** The points before the outcome commits (the one after it, before the backups' removal, is workspace-cleanup-crash's). */
type Point_ = Exclude<CrashPointName, 'publication.before_cleanup'>;
const POINTS = CRASH_POINTS.filter((p): p is Point_ => p !== 'publication.before_cleanup');

/** Which files hold their new bytes when the process dies at each point (the rest hold their old ones). */
const INSTALLED_AT: Record<Point_, number> = {
  'publication.after_started': 0,
  'publication.after_stage': 0,
  'publication.after_install.1': 1,
  'publication.after_install.2': 2,
  'publication.after_fsync': 2,
  'publication.before_outcome': 2,
};

describe(`change_apply killed at every publication crash point on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const points: Point[] = [];
  const bytes = (path: string) => readFileSync(join(dir, path)).toString();
  const stray = () => readdirSync(dir).filter((n) => n.startsWith('.palimpsest-'));
  const applyArgs = (p: Point) => ({ candidate: p.candidate, expected_candidate_version: 1, request_id: p.request_id });

  async function withMcp<T>(fn: (mcp: McpSession) => Promise<T>): Promise<T> {
    const mcp = await connectMcp(env);
    try {
      return await fn(mcp);
    } finally {
      await mcp.close();
    }
  }

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-apply-crash-'));
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir };
    await withMcp(async (mcp) => {
      for (const [i, name] of POINTS.entries()) {
        const specs = [
          { path: `p${i}-crlf.md`, old: `one ${i}\r\ntwo\r\n`, new: `one ${i}\r\nTWO\r\n`, match: 'two', replace: 'TWO' },
          { path: `p${i}-lf.md`, old: `alpha ${i}\nbeta\n`, new: `alpha ${i}\nBETA\n`, match: 'beta', replace: 'BETA' },
        ];
        const files = [];
        for (const s of specs) {
          writeFileSync(join(dir, s.path), s.old);
          const created = await mcp.call('palimpsest_initialize_target', { filename: s.path, from_workspace: true });
          expect(created.result.status).toBe('ok');
          files.push({ ...s, target: created.result.target_file_id as string });
        }
        const proposed = await mcp.call('palimpsest_change_propose', {
          request_id: `propose-${i}`,
          base: files.map((f) => ({ target_file_id: f.target, version: 0 })),
          operations: files.map((f) => ({ kind: 'edit', target_file_id: f.target, match: f.match, replace: f.replace })),
        });
        expect(proposed.result.status).toBe('ok');
        files.sort((a, b) => (a.target < b.target ? -1 : 1));
        points.push({ name, request_id: `apply-${i}`, candidate: proposed.result.candidate.id, files: files.map(({ path, target, old, new: after }) => ({ path, target, old, new: after })) });
      }
    });
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it.each(POINTS.map((name, i) => [name, i]))('dies by SIGKILL at %s with every file whole: its old or its new bytes', (name, i) => {
    const p = points[i as number];
    const run = spawnSync(process.execPath, [CLI_BIN, 'call', 'palimpsest_change_apply', '--args', JSON.stringify(applyArgs(p))], {
      cwd: REPO_ROOT, env: { ...process.env, ...env, [CRASH_POINT_ENV]: name as string }, encoding: 'utf8', timeout: 60_000,
    });
    expect({ signal: run.signal, stdout: run.stdout }).toEqual({ signal: 'SIGKILL', stdout: '' });
    const installed = INSTALLED_AT[name as Point_];
    expect(p.files.map((f) => bytes(f.path))).toEqual(p.files.map((f, k) => (k < installed ? f.new : f.old)));
    // Staged files (and, once installing, backups) are left for recovery; the earlier points' were cleaned up by this process's start.
    expect(stray().length > 0).toBe(name !== 'publication.after_started');
  });

  it('a fresh process rolls every interrupted apply back at start; the resent request applies each candidate exactly once', async () => {
    await withMcp(async (mcp) => {
      // Start-up reconciled every journal: the files hold their old bytes again, in sync, with no journal open.
      for (const p of points) expect(p.files.map((f) => bytes(f.path))).toEqual(p.files.map((f) => f.old));
      expect(stray()).toEqual([]);
      const status = await mcp.call('palimpsest_workspace_status', {});
      expect(status.result.files.map((f: any) => [f.state, f.journal])).toEqual(status.result.files.map(() => ['in_sync', null]));

      for (const p of points) {
        const applied = await mcp.call('palimpsest_change_apply', applyArgs(p));
        expect(applied.result).toMatchObject({ status: 'ok', replayed: false, receipt: { outcome: 'applied', request_id: p.request_id, journal: { state: 'committed' } } });
        expect(applied.result.receipt.files.map((f: any) => [f.path, f.change])).toEqual(p.files.map((f) => [f.path, 'modified']));
        expect(p.files.map((f) => bytes(f.path))).toEqual(p.files.map((f) => f.new));
        const again = await mcp.call('palimpsest_change_apply', applyArgs(p));
        expect(again.result).toEqual({ ...applied.result, replayed: true });
        for (const f of p.files) {
          expect((await mcp.call('palimpsest_get_target', { target_file_id: f.target })).result).toMatchObject({ version: 1 });
          const log = await mcp.call('palimpsest_get_attempt_log', { target_file_id: f.target });
          expect(log.result.entries.filter((e: any) => e.status === 'accepted')).toHaveLength(1);
          expect((await mcp.call('palimpsest_replay', { target_file_id: f.target })).result).toMatchObject({ status: 'success', materialized_state_matches: true });
        }
      }
      expect(stray()).toEqual([]);
    });

    const db = await openDb({}, readStoreConfig(env, process.cwd()));
    try {
      const { rows } = await db.query<{ request_id: string; state: string; reconciled: boolean }>(
        `SELECT request_id, state, reconciled FROM publication_journals WHERE kind = 'apply' ORDER BY request_id, log_sequence`,
      );
      for (const p of points) {
        expect({ point: p.name, journals: rows.filter((r) => r.request_id === p.request_id).map((r) => [r.state, r.reconciled]) }).toEqual({
          point: p.name,
          journals: [['rolled_back', true], ['committed', false]],
        });
      }
    } finally {
      await db.close();
    }
  });
});
