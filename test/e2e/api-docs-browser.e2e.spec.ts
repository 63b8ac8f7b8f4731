import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { validateOpenApi } from '../support/http-openapi';
import { useGateway } from '../support/http-server';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
// Swagger UI renders in one busy browser process: generous bounds, so a loaded machine is slow, not failing.
const BROWSER_STEP_MS = 60_000;
jest.setTimeout(180_000);

type Document = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

/** Opens an operation in Swagger UI and returns its block once its responses are shown. */
async function expand(page: Page, method: string, path: string): Promise<Locator> {
  const block = page.locator(`.opblock.opblock-${method}`, { has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
  await block.locator('.opblock-summary').first().click();
  await block.locator('.responses-wrapper').waitFor();
  return block;
}

const responseCodes = (block: Locator) => block.locator('tr.response').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-code')));

/** The example shown for one response, then its schema (Swagger UI's "Schema" tab). */
async function exampleAndSchema(block: Locator, status: string): Promise<{ example: string; schema: string }> {
  const row = block.locator(`tr.response[data-code="${status}"]`);
  const example = await row.locator('.highlight-code, .microlight').first().innerText();
  await row.locator('button.tablinks[data-name="model"]').click();
  const model = row.locator('.model-box').first();
  await model.waitFor();
  // Open the nested levels ("Expand all" on each collapsed object) so their properties are on the page.
  // Clicked in the page, all at once: Swagger UI re-renders the box on each click, so a button found a
  // moment ago may be gone (waiting for it to become clickable would wait forever).
  for (let i = 0; i < 5; i++) {
    const clicked = await row.locator('.model-box button').evaluateAll((buttons) =>
      buttons.filter((b) => b.textContent?.includes('Expand all')).map((b) => (b as unknown as { click(): void }).click()).length,
    );
    if (clicked === 0) break;
    await row.page().waitForTimeout(100);
  }
  return { example, schema: await model.innerText() };
}

// /docs in a real headless Chromium: Swagger UI renders every route of the document, with its schemas and examples.
describe(`/docs in headless Chromium on ${backend}`, () => {
  const gw = useGateway('read');
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  let doc: Document;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium is not installed at ${CHROMIUM}; install it with: sudo apt-get install -y chromium`);
    }
    profile = mkdtempSync(join(tmpdir(), 'palimpsest-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(BROWSER_STEP_MS);
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    doc = (await gw.http.get('/docs/openapi.json', undefined, { token: null })).body;
    await page.goto(new URL('/docs', gw.api.url).toString());
    await page.waitForSelector('.opblock');
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('serves a document the OpenAPI 3.1 schema validates', async () => {
    expect(await validateOpenApi(doc)).toMatchObject({ valid: true });
  });

  it('renders every route of the document, and nothing else', async () => {
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    const rendered = await page.$$eval('.opblock', (blocks) =>
      blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
    );
    expect(documented.length).toBeGreaterThanOrEqual(30);
    expect(rendered.sort()).toEqual(documented.sort());
  });

  it('shows a submission\'s every status, its real accepted answer and its answer schema, and the 401 the gateway sends', async () => {
    const block = await expand(page, 'post', '/v1/targets/{id}/edits');
    expect((await responseCodes(block)).sort()).toEqual(Object.keys(doc.paths['/v1/targets/{id}/edits']!.post!.responses).sort());
    const ok = await exampleAndSchema(block, '200');
    expect(JSON.parse(ok.example)).toMatchObject({ status: 'accepted', version: 1, manifest_entries_added: 1 });
    expect(ok.schema).toContain('manifest_entries_added');
    expect(ok.schema).toContain('attempt_id');
    const unauthorized = await exampleAndSchema(block, '401');
    expect(JSON.parse(unauthorized.example).error).toMatchObject({ code: 'unauthenticated' });
    expect(unauthorized.schema).toContain('next_actions');
    const rejected = await exampleAndSchema(block, '422');
    expect(JSON.parse(rejected.example).error).toMatchObject({ code: 'proposal_rejected', reason: 'match_ambiguous' });
  });

  it('shows a read\'s answer and a candidate\'s, each with its schema', async () => {
    const read = await expand(page, 'get', '/v1/targets/{id}');
    const target = await exampleAndSchema(read, '200');
    expect(JSON.parse(target.example)).toMatchObject({ status: 'ok', current_content: 'alpha beta gamma\n' });
    expect(target.schema).toContain('current_content');
    const propose = await expand(page, 'post', '/v1/candidates');
    const candidate = await exampleAndSchema(propose, '200');
    expect(JSON.parse(candidate.example)).toMatchObject({ status: 'ok', candidate: { state: 'open' } });
    expect(candidate.schema).toContain('required_checks');
  });

  it('shows the gateway\'s own routes\' answers: health, the event stream, replay', async () => {
    const health = await expand(page, 'get', '/health');
    expect((await responseCodes(health)).sort()).toEqual(['200', '503']);
    expect((await exampleAndSchema(health, '200')).schema).toContain('migrations');
    const events = await expand(page, 'get', '/v1/targets/{id}/events');
    expect(await events.locator('tr.response[data-code="200"]').innerText()).toContain('text/event-stream');
    const replay = await expand(page, 'post', '/v1/replay');
    expect(JSON.parse((await exampleAndSchema(replay, '200')).example)).toMatchObject({ status: 'success', diverged: [] });
  });

  it('logged no error in the browser console', () => {
    expect(consoleErrors).toEqual([]);
  });
});
