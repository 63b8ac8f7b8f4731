import { createHash, generateKeyPairSync } from 'node:crypto';
import { openCheckpoint, parseVerifierKey, rawPublicKey, signCheckpoint, verifierKey } from './checkpoint-note';
import { leafHash, leafHashHex, pushToFrontier, rootOf, rootOfFrontier, verifyConsistency, verifyInclusion, type MerkleNode } from './merkle-log';
import { consistencyPath, consistencyProof, inclusionPath, inclusionProof, nodesOf } from './merkle-nodes';

/** RFC 9162 section 2.1, written here as the RFC states it (recursion on slices), apart from merkle-log.ts. */
const h = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const k = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
const mth = (d: Buffer[]): Buffer =>
  d.length === 0 ? h() : d.length === 1 ? h(Buffer.from([0]), d[0]!) : h(Buffer.from([1]), mth(d.slice(0, k(d.length))), mth(d.slice(k(d.length))));
const path = (m: number, d: Buffer[]): Buffer[] => {
  if (d.length <= 1) return [];
  const s = k(d.length);
  return m < s ? [...path(m, d.slice(0, s)), mth(d.slice(s))] : [...path(m - s, d.slice(s)), mth(d.slice(0, s))];
};
const subproof = (m: number, d: Buffer[], b: boolean): Buffer[] => {
  if (m === d.length) return b ? [] : [mth(d)];
  const s = k(d.length);
  return m <= s ? [...subproof(m, d.slice(0, s), b), mth(d.slice(s))] : [...subproof(m - s, d.slice(s), false), mth(d.slice(0, s))];
};

const data = Array.from({ length: 70 }, (_, i) => Buffer.from(`entry ${i}`));
const leaves = data.map((d) => leafHash(d));
const hex = (list: Buffer[]) => list.map((b) => b.toString('hex'));

describe('the Merkle log (RFC 9162)', () => {
  it('has the roots and audit paths of the RFC for every size and leaf', () => {
    expect(rootOf([]).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (let n = 1; n <= data.length; n++) {
      const root = rootOf(leaves, 0, n);
      expect(root).toEqual(mth(data.slice(0, n)));
      expect(rootOf(hex(leaves), 0, n)).toEqual(root); // a bundle's leaves, as lowercase hex
      for (let m = 0; m < n; m++) {
        const proof = inclusionProof(leaves, m, n);
        expect(hex(proof)).toEqual(hex(path(m, data.slice(0, n))));
        expect(verifyInclusion(m, n, leaves[m]!, proof, root)).toBe(true);
      }
    }
  });

  it('hashes a leaf of any length, as a Buffer or as hex', () => {
    for (const d of [Buffer.alloc(0), Buffer.from('é'), Buffer.alloc(5000, 7)]) {
      expect(leafHash(d)).toEqual(h(Buffer.from([0]), d));
      expect(leafHashHex(d)).toBe(h(Buffer.from([0]), d).toString('hex'));
    }
    const utf8 = Buffer.from('é'.repeat(900)); // a text longer in UTF-8 than in characters
    expect(leafHash('é'.repeat(900))).toEqual(h(Buffer.from([0]), utf8));
    expect(leafHashHex('é'.repeat(900))).toBe(h(Buffer.from([0]), utf8).toString('hex'));
  });

  it('has the consistency proofs of the RFC between every two sizes, and verifies them', () => {
    for (let n = 1; n <= 40; n++) {
      for (let m = 1; m <= n; m++) {
        const proof = consistencyProof(leaves, m, n);
        expect(hex(proof)).toEqual(hex(m === n ? [] : subproof(m, data.slice(0, n), true)));
        expect(verifyConsistency(m, n, mth(data.slice(0, m)), mth(data.slice(0, n)), proof)).toBe(true);
      }
    }
  });

  it('refuses a wrong leaf, index, size, root or path', () => {
    const n = 37;
    const root = rootOf(leaves, 0, n);
    const proof = inclusionProof(leaves, 5, n);
    expect(verifyInclusion(5, n, leaves[6]!, proof, root)).toBe(false);
    expect(verifyInclusion(4, n, leaves[5]!, proof, root)).toBe(false);
    expect(verifyInclusion(5, 7, leaves[5]!, proof, root)).toBe(false);
    expect(verifyInclusion(5, n, leaves[5]!, proof, rootOf(leaves, 0, n - 1))).toBe(false);
    expect(verifyInclusion(5, n, leaves[5]!, proof.slice(1), root)).toBe(false);
    expect(verifyInclusion(5, n, leaves[5]!, [...proof, root], root)).toBe(false);
    const forked = [...leaves.slice(0, 20)];
    forked[3] = leafHash('rewritten');
    const c = consistencyProof(leaves, 20, n);
    expect(verifyConsistency(20, n, rootOf(forked), root, c)).toBe(false);
    expect(verifyConsistency(20, n, rootOf(leaves, 0, 20), root, c.slice(1))).toBe(false);
  });

  it('keeps an inclusion proof at a million leaves under 1 KB (20 hashes of 32 bytes)', () => {
    expect(Math.ceil(Math.log2(1_000_000)) * 32).toBeLessThanOrEqual(1024);
  });
});

describe('signed checkpoints (C2SP signed note)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = rawPublicKey(publicKey);
  const signed = signCheckpoint({ origin: 'palimpsest.example/log', size: 70, root: rootOf(leaves) }, 'palimpsest.example', privateKey, raw);

  it('writes the checkpoint body, a blank line and one signature line', () => {
    expect(signed.note).toMatch(/^palimpsest\.example\/log\n70\n[A-Za-z0-9+/]{43}=\n\n\u2014 palimpsest\.example [A-Za-z0-9+/]{91}=\n$/);
    expect(openCheckpoint(signed.note, 'palimpsest.example', raw)).toEqual({ ok: true, checkpoint: signed });
    expect(parseVerifierKey(verifierKey('palimpsest.example', raw))).toEqual({ name: 'palimpsest.example', publicKey: raw });
  });

  it('refuses an edited body, a forged signature, another key', () => {
    const edited = signed.note.replace('\n70\n', '\n71\n');
    expect(openCheckpoint(edited, 'palimpsest.example', raw)).toEqual({ ok: false, reason: 'the signature of palimpsest.example does not verify' });
    const line = signed.note.split('\n')[4]!;
    const bytes = Buffer.from(line.split(' ')[2]!, 'base64');
    bytes[10] = bytes[10]! ^ 1;
    const forged = signed.note.replace(line, `\u2014 palimpsest.example ${bytes.toString('base64')}`);
    expect(openCheckpoint(forged, 'palimpsest.example', raw).ok).toBe(false);
    const other = rawPublicKey(generateKeyPairSync('ed25519').publicKey);
    expect(openCheckpoint(signed.note, 'palimpsest.example', other)).toEqual({ ok: false, reason: 'no signature by palimpsest.example' });
  });
});

describe('the frontier of the Merkle log', () => {
  it('gives the root of every prefix from its perfect subtrees alone', () => {
    let frontier: Buffer[] = [];
    for (let n = 0; n < leaves.length; n++) {
      frontier = pushToFrontier(frontier, n, leaves[n]!);
      expect(frontier).toHaveLength([...(n + 1).toString(2)].filter((b) => b === '1').length);
      expect(rootOfFrontier(frontier)).toEqual(mth(data.slice(0, n + 1)));
    }
  });
});

describe('proofs from the stored nodes', () => {
  it('records every node the frontier completes, and proofs made from those nodes are the RFC paths', () => {
    const stored = new Map<string, Buffer>(leaves.map((leaf, i) => [`0:${i}`, leaf]));
    let frontier: Buffer[] = [];
    for (let n = 0; n < leaves.length; n++) {
      const completed: MerkleNode[] = [];
      frontier = pushToFrontier(frontier, n, leaves[n]!, completed);
      for (const node of completed) {
        const width = 2 ** node.level;
        expect(node.hash).toEqual(mth(data.slice(node.index * width, (node.index + 1) * width)));
        stored.set(`${node.level}:${node.index}`, node.hash);
      }
    }
    const lookup = (level: number, index: number) => stored.get(`${level}:${index}`) ?? Buffer.alloc(0);
    for (let size = 1; size <= leaves.length; size++) {
      const root = mth(data.slice(0, size));
      for (let index = 0; index < size; index++) {
        const path = inclusionPath(index, size, lookup);
        expect(path).toEqual(inclusionProof(leaves, index, size));
        expect(verifyInclusion(index, size, leaves[index]!, path, root)).toBe(true);
      }
      for (let first = 1; first < size; first++) {
        const proof = consistencyPath(first, size, lookup);
        expect(proof).toEqual(consistencyProof(leaves, first, size));
        expect(verifyConsistency(first, size, mth(data.slice(0, first)), root, proof)).toBe(true);
      }
    }
  });

  it('lists the nodes a proof reads: O(log² n) of them, never the leaves of the whole tree', () => {
    const size = 1_000_000;
    const reads = nodesOf((node) => inclusionPath(777_777, size, node));
    expect(reads.length).toBeLessThanOrEqual(Math.ceil(Math.log2(size)) ** 2);
    expect(nodesOf((node) => consistencyPath(654_321, size, node)).length).toBeLessThanOrEqual(Math.ceil(Math.log2(size)) ** 2);
    expect(reads.every((r) => (r.index + 1) * 2 ** r.level <= size)).toBe(true);
  });
});
