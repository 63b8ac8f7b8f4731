import { nodeHash, rootOf, splitOf } from './merkle-log';

/**
 * Proofs of RFC 9162 from stored nodes instead of every leaf: a perfect subtree of 2^level leaves starting
 * at leaf index·2^level is node (level, index), level 0 being the leaves. Every hash a proof needs is a
 * range of the tree that splits, at the RFC's split points, into at most ⌈log2 n⌉ such nodes, so a proof
 * reads O(log² n) nodes at worst, never the leaves of the whole tree.
 */

export interface NodeRef {
  level: number;
  index: number;
}

export type NodeLookup = (level: number, index: number) => Buffer;

/** The hash of leaves [from, to) where `from` is aligned to the range's left split (as every range of a proof is). */
function rangeHash(from: number, to: number, node: NodeLookup): Buffer {
  const n = to - from;
  if ((n & (n - 1)) === 0) {
    const level = Math.log2(n);
    return node(level, from / n);
  }
  const k = splitOf(n);
  return nodeHash(rangeHash(from, from + k, node), rangeHash(from + k, to, node));
}

/** The audit path of leaf `index` in the tree of `size` leaves (RFC 9162 2.1.3.1), leaf side first. */
export function inclusionPath(index: number, size: number, node: NodeLookup): Buffer[] {
  if (!(index >= 0 && index < size)) throw new RangeError(`no leaf ${index} in a tree of ${size}`);
  const above: Buffer[] = [];
  let [from, to, m] = [0, size, index];
  while (to - from > 1) {
    const k = splitOf(to - from);
    if (m < k) {
      above.push(rangeHash(from + k, to, node));
      to = from + k;
    } else {
      above.push(rangeHash(from, from + k, node));
      from += k;
      m -= k;
    }
  }
  return above.reverse();
}

/** The consistency proof between the trees of `first` and `second` leaves (RFC 9162 2.1.4.1). */
export function consistencyPath(first: number, second: number, node: NodeLookup): Buffer[] {
  if (!(first >= 0 && first <= second)) throw new RangeError(`no consistency from ${first} to ${second}`);
  if (first === 0 || first === second) return [];
  const above: Buffer[] = [];
  let [from, to, m, whole] = [0, second, first, true];
  while (m !== to - from) {
    const k = splitOf(to - from);
    if (m <= k) {
      above.push(rangeHash(from + k, to, node));
      to = from + k;
    } else {
      above.push(rangeHash(from, from + k, node));
      from += k;
      m -= k;
      whole = false;
    }
  }
  if (!whole) above.push(rangeHash(from, to, node));
  return above.reverse();
}

const PLACEHOLDER = Buffer.alloc(32);

/** The nodes a proof reads, found by running it on placeholders: what to fetch before running it for real. */
export function nodesOf(proof: (node: NodeLookup) => Buffer[]): NodeRef[] {
  const wanted = new Map<string, NodeRef>();
  proof((level, index) => {
    wanted.set(`${level}:${index}`, { level, index });
    return PLACEHOLDER;
  });
  return [...wanted.values()];
}

/** Nodes computed from every leaf's hash: for a verifier holding the leaves, and for tests. */
export function nodesOfLeaves(leaves: readonly Buffer[]): NodeLookup {
  return (level, index) => {
    const width = 2 ** level;
    if ((index + 1) * width > leaves.length) throw new RangeError(`node (${level}, ${index}) is past the ${leaves.length} leaves`);
    return rootOf(leaves, index * width, (index + 1) * width);
  };
}

export const inclusionProof = (leaves: readonly Buffer[], index: number, size = leaves.length): Buffer[] => inclusionPath(index, size, nodesOfLeaves(leaves));

export const consistencyProof = (leaves: readonly Buffer[], first: number, second = leaves.length): Buffer[] => consistencyPath(first, second, nodesOfLeaves(leaves));
