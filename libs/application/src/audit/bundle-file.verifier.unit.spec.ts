import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleText } from '@palimpsest/core/audit/bundle-lines';
import { syntheticBundle } from '@palimpsest/core/audit/test-support/synthetic-bundle';
import type { SliceContext } from '@palimpsest/core/audit/verify-slice';
import { forEachLineIn, verifyFileSlice, type ByteRange } from './bundle-file-slice.reader';
import { NotABundleError, verifyBundleFile } from './bundle-file.verifier';

/** The slices run in this thread (the worker entry runs the same verifyFileSlice): Jest runs TypeScript, a worker thread would not. */
const runSlice = async (file: string, range: ByteRange, context: SliceContext) => verifyFileSlice(file, range, context);

describe('a bundle file verified by byte ranges', () => {
  let dir: string;
  const { bundle } = syntheticBundle(120, 5);
  const text = bundleText(bundle);
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'palimpsest-bundle-file-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives every line to exactly one range, wherever the cut falls in a line (multi-byte characters too)', () => {
    const lines = ['{"header":1}', 'alpha', 'é ü — 😀 beta', '', 'gamma gamma', 'ω'];
    const content = `${lines.join('\n')}\n`;
    const path = file('lines.txt', content);
    const start = Buffer.byteLength(`${lines[0]}\n`);
    const size = Buffer.byteLength(content);
    for (let cut = start; cut <= size; cut++) {
      const seen: string[] = [];
      forEachLineIn(path, { start, end: cut }, (l) => seen.push(l));
      forEachLineIn(path, { start: cut, end: size }, (l) => seen.push(l));
      expect(seen).toEqual(lines.slice(1));
    }
  });

  it.each([1, 2, 3, 7, 19, 40])('verifies the genuine bundle cut into %i ranges', async (slices) => {
    const report = await verifyBundleFile(file('genuine.jsonl', text), { slices, runSlice, engines: false });
    expect(report).toMatchObject({ ok: true, failure: null, events: 120, streams: 5, proven: 120 });
  });

  it('names a line cut short at the end of a truncated file, and a payload altered, in any number of ranges', async () => {
    for (const slices of [1, 4, 9]) {
      const cut = await verifyBundleFile(file('cut.jsonl', text.slice(0, -30)), { slices, runSlice });
      expect(cut.failure).toEqual({ kind: 'bundle', reason: 'line 121 is not an event line: not JSON: cut short or altered' });
      const altered = await verifyBundleFile(file('altered.jsonl', text.replace('"attempt_id":"a-61"', '"attempt_id":"a-16"')), { slices, runSlice });
      expect(altered.failure).toMatchObject({ kind: 'event', global_position: 62, stream_id: 'stream-1', stream_version: 13 });
    }
  });

  it('reads a bundle of one document (format 1) as before, and names its tampering', async () => {
    expect(await verifyBundleFile(file('document.json', `${JSON.stringify(bundle)}\n`), { engines: false })).toMatchObject({ ok: true, events: 120, proven: 120 });
    const tampered = structuredClone(bundle);
    tampered.events[61]!.chain_hash = tampered.events[60]!.chain_hash;
    expect((await verifyBundleFile(file('tampered.json', JSON.stringify(tampered)))).failure).toMatchObject({ kind: 'event', global_position: 62 });
  });

  it('fails a header whose checkpoints are malformed as a bundle, not as a crash', async () => {
    const [head, ...rest] = text.split('\n');
    const broken = JSON.stringify({ ...(JSON.parse(head!) as object), checkpoints: [{ note: 42 }] });
    const report = await verifyBundleFile(file('broken.jsonl', [broken, ...rest].join('\n')), { runSlice });
    expect(report.failure).toMatchObject({ kind: 'bundle', reason: expect.stringMatching(/checkpoint/) });
  });

  it('refuses a file signed by another key than the one given, in either format', async () => {
    const other = 'other+01234567+AQ==';
    for (const path of [file('k.jsonl', text), file('k.json', JSON.stringify(bundle))]) {
      expect((await verifyBundleFile(path, { key: other })).failure).toEqual({ kind: 'bundle', reason: 'signed by another key than the one given' });
    }
  });

  it('says what to do with a file that is not a bundle', async () => {
    await expect(verifyBundleFile(file('notes.txt', 'dear diary\n'))).rejects.toThrow(NotABundleError);
    await expect(verifyBundleFile(file('notes.txt', 'dear diary\n'))).rejects.toThrow(/is not a bundle: .* Write one with `palimpsest export -o <file>`/);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('dear diary\n');
  });
});
