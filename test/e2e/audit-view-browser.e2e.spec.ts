import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { BundleHeader } from '@palimpsest/core/audit/bundle-lines';
import { describeFailure } from '@palimpsest/core/audit/verify-bundle';
import { verifyBundleText } from '@palimpsest/core/audit/verify-lines';
import { openDb } from '@palimpsest/store/open-db';
import { isolatedStore, REPO_ROOT } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const ARTIFACTS = join(REPO_ROOT, 'test-artifacts', 'audit-view');
// Bounds for a loaded machine, not expected durations: each step waits for a state.
const STEP_MS = 20_000;
jest.setTimeout(60_000);

/** Attacker-controlled text: a file's content and an attempt's intent, which the view must show as text. */
const HOSTILE_TEXT = '<script>window.__pwned = "content"</script>\nbeta\n';
const FAILING = 'node -e "process.exit(3)"';
const HOSTILE_INTENT = '<img src=x onerror="window.__pwned = \'intent\'"> beta to gamma';

// The auditor's view in a real headless Chromium, on one gateway with a workspace and the audit log on.
describe(`/audit in headless Chromium on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let scratch: string;
  let env: NodeJS.ProcessEnv;
  let api: ApiProcess;
  let tokens: Record<string, { token: string }>;
  let writer: HttpClient;
  let target: string;
  const positions: Record<string, number> = {};
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${backend}-${name}.png`), fullPage: true });

  /** Submits one edit as `session` and returns its answer; the event's global position is read from the stream. */
  async function edit(version: number, match: string, replace: string, intent: string, session: string) {
    const r = await writer.post(`/v1/targets/${target}/edits`, { intent, expected_target_version: version, edits: [{ match, replace }] }, { headers: { 'X-Correlation-Id': session } });
    expect(r.status).toBeLessThan(500);
    return r.body as { status: string; attempt_id: string; log_sequence: number };
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    store = await isolatedStore();
    scratch = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-audit-view-'));
    mkdirSync(join(scratch, 'ws'));
    writeFileSync(join(scratch, 'ws', 'page.html'), HOSTILE_TEXT);
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: join(scratch, 'ws'), PALIMPSEST_AUDIT_KEY: join(scratch, 'audit-key.pem'), PALIMPSEST_AUDIT_CHECKPOINT_EVENTS: '1' };
    tokens = await seedTokens(env, { auditor: 'auditor', writer: 'read,write,operator', reader: 'read' });
    api = await startApi(env, ['--no-local-token']);
    writer = new HttpClient(api.url, tokens.writer!.token);
    const init = await writer.post('/v1/targets', { filename: 'page.html', from_workspace: true });
    expect(init.status).toBe(201);
    target = init.body.target_file_id;
    const accepted = await edit(0, 'beta', 'gamma', HOSTILE_INTENT, 'agent-session-1');
    const refused = await edit(1, 'no such text', 'x', 'refused on purpose', 'agent-session-2');
    expect([accepted.status, refused.status]).toEqual(['accepted', 'rejected']);
    Object.assign(positions, { accepted: accepted.log_sequence, refused: refused.log_sequence });
    const ran = await writer.post('/v1/commands/runs', { command: FAILING }, { headers: { 'X-Correlation-Id': 'agent-session-1' } });
    expect(ran.body).toMatchObject({ status: 'ok', exitCode: 3 });

    context = await chromium.launchPersistentContext(join(scratch, 'chromium'), { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, acceptDownloads: true });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(STEP_MS);
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('dialog', (dialog) => {
      pageErrors.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(new URL('/audit', api.url).toString());
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    expect((await api?.stop())?.code).toBe(0);
    await store?.dispose();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  async function signIn(token: string): Promise<void> {
    await page.fill('#token', token);
    await page.click('#token-form button');
  }

  it('answers 401 without a token and 403 to a token without the auditor scope, over HTTP and on the page', async () => {
    const http = new HttpClient(api.url, null);
    for (const path of ['/audit/fragments/workspace', `/audit/fragments/targets/${target}`, '/audit/bundle']) {
      expect((await http.get(path)).status).toBe(401);
      const refused = await http.get(path, undefined, { token: tokens.reader!.token });
      expect({ path, status: refused.status, reason: refused.body.error.reason }).toEqual({ path, status: 403, reason: 'missing_scope' });
    }
    await signIn(tokens.reader!.token);
    await page.waitForSelector('#error[data-status="403"]:not([hidden])');
    expect(await page.textContent('#error')).toContain('needs the auditor scope');
    expect(await page.locator('#workspace tr').count()).toBe(0);
  });

  it('lists the bound files with their versions and opens a file\'s timeline: accepted and refused attempts, reasons, callers', async () => {
    await signIn(tokens.auditor!.token);
    const file = page.locator('#workspace tr[data-path="page.html"]');
    await file.waitFor();
    expect(await file.locator('.version').textContent()).toBe('1');
    await file.locator('a.open-target').click();
    const accepted = page.locator(`#timeline-rows tr[data-position="${positions.accepted}"]`);
    const refused = page.locator(`#timeline-rows tr[data-position="${positions.refused}"]`);
    await refused.waitFor();
    expect(await accepted.locator('.outcome').textContent()).toBe('accepted → v1');
    expect(await accepted.locator('.intent').textContent()).toBe(HOSTILE_INTENT);
    expect(await accepted.locator('.caller').innerText()).toBe('agent-session-1 palimpsest_submit_edits');
    expect(await refused.locator('.outcome').textContent()).toBe('refused');
    expect(await refused.locator('.reason').textContent()).toContain('match_absent');
    expect(await refused.locator('.caller .session').textContent()).toBe('agent-session-2');
    expect(await page.textContent('#replay')).toContain('reproduce version 1');
    const run = page.locator('table.runs tbody tr');
    expect(await run.count()).toBe(1);
    expect(await run.locator('td').allInnerTexts()).toEqual([expect.any(String), expect.any(String), FAILING, 'exited', '3', '', 'agent-session-1 run_command']);
    await shot('timeline');
  });

  it('grows the timeline when a new attempt is recorded, without a reload', async () => {
    const before = await page.locator('#timeline-rows tr').count();
    const next = await edit(1, 'gamma', 'delta', 'a live edit', 'agent-session-3');
    expect(next.status).toBe('accepted');
    await page.locator(`#timeline-rows tr[data-position="${next.log_sequence}"].fresh`).waitFor();
    expect(await page.locator('#timeline-rows tr').count()).toBe(before + 1);
    await page.waitForFunction('document.getElementById("current-version").textContent === "2"');
    expect(await page.locator(`#timeline-rows tr[data-position="${next.log_sequence}"] .outcome`).textContent()).toBe('accepted → v2');
    await page.locator('#workspace tr[data-path="page.html"] .version', { hasText: '2' }).waitFor();
    await page.locator('#replay', { hasText: 'reproduce version 2' }).waitFor();
  });

  it('diffs two versions and shows the text as of a version, the file\'s markup as text', async () => {
    await page.fill('#diff-form input[name="from"]', '0');
    await page.fill('#diff-form input[name="to"]', '2');
    await page.click('#diff-form button');
    await page.locator('#diff .hunk').waitFor();
    expect(await page.locator('#diff .line').allTextContents()).toEqual(['<script>window.__pwned = "content"</script>', '-beta', '+delta'].map((l, i) => (i === 0 ? ` ${l}` : l)));
    expect(await page.locator('#diff .attempts li > span:first-child').allTextContents()).toEqual(['accepted', 'rejected', 'accepted']);
    await page.fill('#as-of-form input[name="version"]', '0');
    await page.click('#as-of-form button');
    await page.locator('#as-of .as-of-text').waitFor();
    expect(await page.textContent('#as-of .as-of-text')).toBe(HOSTILE_TEXT);
    expect(await page.locator('script').count()).toBe(1); // the view's own, and no other
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    await shot('diff-and-as-of');
  });

  it('shows the verification with the latest signed checkpoint, and downloads the bundle, which verifies', async () => {
    // The projector signs a checkpoint after each batch (PALIMPSEST_AUDIT_CHECKPOINT_EVENTS=1): ask again until the latest covers the live edit.
    const covered = async () => {
      await page.click('#verify');
      await page.locator('#verification:not([aria-busy]) .verification.ok').waitFor();
      const note = (await page.locator('#verification pre.checkpoint').count()) ? ((await page.textContent('#verification pre.checkpoint')) ?? '') : '';
      return Number(note.split('\n')[1] ?? 0) >= positions.refused! + 1;
    };
    const deadline = Date.now() + STEP_MS;
    while (!(await covered())) if (Date.now() > deadline) throw new Error('no checkpoint covered the edits');
    expect(await page.textContent('#verification .replay-all')).toBe('Replay: every target reproduces its current version (1 replayed).');
    expect(await page.textContent('#verification pre.checkpoint')).toMatch(/^palimpsest\/log\n\d+\n\S+=\n\n— palimpsest \S+\n$/);
    await shot('verified');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    expect(download.suggestedFilename()).toBe('palimpsest-audit-bundle.jsonl');
    const text = readFileSync((await download.path())!, 'utf8');
    const report = verifyBundleText(text);
    expect(report.failure ? describeFailure(report.failure) : 'ok').toBe('ok');
    expect(report.proven).toBeGreaterThan(positions.refused!);
    const key = await new HttpClient(api.url).get('/.well-known/palimpsest-audit-key');
    const [header, ...events] = text.trim().split('\n').map((line) => JSON.parse(line) as unknown);
    expect((header as BundleHeader).verifier_key).toBe(key.text.trim());
    expect(events.map((row) => (row as [number])[0])).toEqual(expect.arrayContaining([positions.accepted, positions.refused]));
  });

  it('names the event whose data was rewritten in SQL', async () => {
    await tamper(`UPDATE events SET data = jsonb_set(data, '{intent}', '"rewritten"') WHERE global_position = ${positions.accepted}`);
    await page.click('#verify');
    const failed = page.locator('#verification:not([aria-busy]) .verification.failed');
    await failed.waitFor();
    expect(await failed.textContent()).toContain(`Verification failed: event at position ${positions.accepted} (target-${target} version 3)`);
    await shot('tampered');
    expect(pageErrors).toEqual([]);
  });

  /**
   * Runs `statement` with the append-only trigger off, as someone with the database could. PostgreSQL is
   * changed under the running gateway; the embedded store has one owner, so the gateway stops for it and
   * starts again on the same port (the page and its token stay as they are).
   */
  async function tamper(statement: string): Promise<void> {
    const run = async (query: (text: string) => Promise<unknown>) => {
      await query('BEGIN');
      await query('ALTER TABLE events DISABLE TRIGGER events_append_only');
      await query(statement);
      await query('ALTER TABLE events ENABLE TRIGGER events_append_only');
      await query('COMMIT');
    };
    if (env.DATABASE_URL) {
      const client = new pg.Client({ connectionString: env.DATABASE_URL });
      await client.connect();
      await run((text) => client.query(text)).finally(() => client.end());
      return;
    }
    expect((await api.stop()).code).toBe(0);
    const db = await openDb({ dataDir: env.PALIMPSEST_DATA_DIR! });
    await run((text) => db.query(text)).finally(() => db.close());
    api = await startApi(env, ['--no-local-token', '--port', new URL(api.url).port]);
  }
});
