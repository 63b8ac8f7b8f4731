import type { AuditBundle } from './audit-bundle';
import { bundleText } from './bundle-lines';
import { chainLinkOfText, eventLeafData } from './event-chain';
import { leafHashHex } from './merkle-log';
import { syntheticBundle } from './test-support/synthetic-bundle';
import { verifyBundle } from './verify-bundle';
import { verifyBundleText } from './verify-lines';

/** 200 events over 7 streams: position p is stream-((p-1) % 7), version ⌊(p-1)/7⌋ + 1, at leaf p - 1 and on line p (line 0 the header). */
const { bundle } = syntheticBundle(200, 7);
const text = bundleText(bundle);
const lines = text.split('\n');
const joined = (list: string[]) => list.join('\n');
const edited = (position: number, edit: (line: string) => string) => joined(lines.map((l, i) => (i === position ? edit(l) : l)));
const swapped = (a: number, b: number) => joined(lines.map((l, i) => (i === a ? lines[b]! : i === b ? lines[a]! : l)));
const CHAIN = /its content or place does not match its chain link/;

describe('a bundle of lines verified by slices', () => {
  it.each([1, 2, 3, 7, 64])('verifies the genuine bundle in %i slices as the one-document verifier does', (slices) => {
    const report = verifyBundleText(text, undefined, { slices, engines: false });
    expect(report).toEqual({ ...verifyBundle(bundle, undefined, { engines: false }), replayed: undefined });
    expect(report).toMatchObject({ ok: true, events: 200, streams: 7, proven: 200 });
  });

  describe.each([1, 3, 7])('names the first failing event, in %i slices', (slices) => {
    const failure = (t: string) => verifyBundleText(t, undefined, { slices, engines: false }).failure;

    it('an altered payload', () => {
      expect(failure(edited(100, (l) => l.replace('"attempt_id":"a-99"', '"attempt_id":"a-98"')))).toMatchObject({ kind: 'event', global_position: 100, stream_id: 'stream-1', stream_version: 15, reason: expect.stringMatching(CHAIN) });
    });

    it('an altered link', () => {
      const link = bundle.events[99]!.chain_hash;
      expect(failure(edited(100, (l) => l.replace(link, `${link[0] === 'a' ? 'b' : 'a'}${link.slice(1)}`)))).toMatchObject({ kind: 'event', global_position: 100, reason: expect.stringMatching(CHAIN) });
    });

    it('lines reordered, inside a slice and across a seam', () => {
      expect(failure(swapped(100, 101))).toMatchObject({ kind: 'event', global_position: 101, reason: 'signed at leaf 100, in the place of leaf 99: the lines were reordered, or the event of leaf 99 deleted' });
      expect(failure(swapped(67, 68))).toMatchObject({ kind: 'event', global_position: 68 });
      expect(failure(swapped(100, 107))).toMatchObject({ kind: 'event', global_position: 107, reason: 'version 15 of the stream is missing before it: an event was deleted' });
    });

    it('a line broken in two, and a file truncated mid-line or at a line', () => {
      expect(failure(edited(100, (l) => `${l.slice(0, 50)}\n${l.slice(50)}`))).toEqual({ kind: 'bundle', reason: 'line 101 is not an event line: not JSON: cut short or altered' });
      expect(failure(text.slice(0, text.length - 40))).toEqual({ kind: 'bundle', reason: 'line 201 is not an event line: not JSON: cut short or altered' });
      expect(failure(joined([...lines.slice(0, 151), '']))).toEqual({ kind: 'bundle', reason: 'it announces 200 events and holds 150: the file was truncated, or lines added' });
    });

    it('a forged checkpoint signature', () => {
      expect(failure(forgedSignature(text))).toMatchObject({ kind: 'checkpoint', index: 0, size: 200, reason: expect.stringMatching(/does not verify/) });
    });

    it('a non-canonical line, even relinked and its leaf relisted over the text as written', () => {
      expect(failure(edited(100, (l) => l.replace('"attempt_id":"a-99"', '"attempt_id": "a-99"')))).toMatchObject({ kind: 'event', global_position: 100, reason: expect.stringMatching(/not written in canonical JSON/) });
      // The last event of stream-3 (position 200): its members swapped, linked and leafed as written.
      const e = bundle.events[199]!;
      const before = bundle.events[192]!;
      const line = lines[200]!;
      const canonical = line.slice(line.indexOf('{"data":'), -1);
      const reordered = canonical.replace(/"after_version":(\d+),"attempt_id":("a-\d+")/, '"attempt_id":$2,"after_version":$1');
      expect(reordered).not.toBe(canonical);
      const link = chainLinkOfText(before.chain_hash, reordered);
      const leaf = leafHashHex(eventLeafData({ globalPosition: 200, streamId: e.stream_id, streamVersion: e.stream_version }, link));
      const forged = edited(200, () => `[200,199,"${link}","${leaf}",${reordered}]`);
      expect(failure(forged)).toMatchObject({ kind: 'event', global_position: 200, reason: expect.stringMatching(/not written in canonical JSON/) });
    });
  });

  it('refuses a text that is not a bundle, saying so', () => {
    expect(verifyBundleText('{"format":"something else"}\n').failure).toEqual({ kind: 'bundle', reason: 'not a palimpsest audit bundle' });
    expect(verifyBundleText('hello\n').failure).toEqual({ kind: 'bundle', reason: 'its first line is not JSON' });
  });

  it('refuses a header whose checkpoints or consistency proofs are not what they say, saying which', () => {
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    const withHeader = (h: Record<string, unknown>) => joined([JSON.stringify(h), ...lines.slice(1)]);
    expect(verifyBundleText(withHeader({ ...header, consistency: {} }), undefined, { engines: false }).failure).toMatchObject({ kind: 'bundle', reason: expect.stringContaining('consistency proofs') });
    expect(verifyBundleText(withHeader({ ...header, checkpoints: [{ note: 1 }] }), undefined, { engines: false }).failure).toMatchObject({ kind: 'bundle', reason: expect.stringContaining('checkpoint') });
  });
});

describe('the same tampering in a bundle of one document (format 1)', () => {
  const failure = (b: AuditBundle) => verifyBundle(b, undefined, { engines: false }).failure;
  const copy = () => structuredClone(bundle);

  it('names the event of an altered payload or link, and of leaves swapped', () => {
    const payload = copy();
    (payload.events[99]!.data as { attempt_id: string }).attempt_id = 'a-98';
    expect(failure(payload)).toMatchObject({ kind: 'event', global_position: 100, reason: expect.stringMatching(CHAIN) });
    const link = copy();
    link.events[99]!.chain_hash = link.events[98]!.chain_hash;
    expect(failure(link)).toMatchObject({ kind: 'event', global_position: 100, reason: expect.stringMatching(CHAIN) });
    const moved = copy();
    [moved.events[99]!.leaf_index, moved.events[100]!.leaf_index] = [100, 99];
    expect(failure(moved)).toMatchObject({ kind: 'event', global_position: 100, reason: 'not the event signed at leaf 100: altered, moved or inserted after it was signed' });
  });

  it('names a truncated log and a forged checkpoint signature', () => {
    const cut = copy();
    cut.events = cut.events.slice(0, 150);
    expect(failure(cut)).toEqual({ kind: 'bundle', reason: 'leaf 150 of the 200 the latest checkpoint signed has no event: deleted, or the log truncated' });
    const forged = copy();
    forged.checkpoints[0]!.note = forgedSignature(forged.checkpoints[0]!.note);
    expect(failure(forged)).toMatchObject({ kind: 'checkpoint', index: 0, reason: expect.stringMatching(/does not verify/) });
  });
});

/** The checkpoint's Ed25519 signature with one byte changed (its key id kept). */
function forgedSignature(within: string): string {
  return within.replace(/(\u2014 \S+ )([A-Za-z0-9+/]+=*)/, (_, head: string, b64: string) => {
    const bytes = Buffer.from(b64, 'base64');
    bytes[10] = bytes[10]! ^ 1;
    return head + bytes.toString('base64');
  });
}
