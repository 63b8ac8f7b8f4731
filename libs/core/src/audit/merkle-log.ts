import { createHash } from 'node:crypto';

/**
 * The Merkle tree of RFC 9162 (Certificate Transparency 2.0, section 2.1) over a list of leaves:
 * leaf hash SHA-256(0x00 ‖ data), node hash SHA-256(0x01 ‖ left ‖ right), the left subtree of n leaves
 * holding the largest power of two below n. Proofs are made from the leaves' hashes and checked with the
 * RFC's own verification algorithms (2.1.3.2 and 2.1.4.2). Hashes are 32-byte Buffers.
 */

const EMPTY_ROOT = createHash('sha256').digest();

export function leafHash(data: Buffer | string): Buffer {
  return createHash('sha256').update(Buffer.from([0])).update(data).digest();
}

export function nodeHash(left: Buffer, right: Buffer): Buffer {
  return createHash('sha256').update(Buffer.from([1])).update(left).update(right).digest();
}

/** The root of leaves[from, to), built bottom up with a stack of perfect subtrees (one pass, no recursion). */
export function rootOf(leaves: readonly Buffer[], from = 0, to = leaves.length): Buffer {
  if (to <= from) return EMPTY_ROOT;
  const stack: { hash: Buffer; size: number }[] = [];
  for (let i = from; i < to; i++) {
    let top = { hash: leaves[i]!, size: 1 };
    while (stack.length > 0 && stack[stack.length - 1]!.size === top.size) {
      const left = stack.pop()!;
      top = { hash: nodeHash(left.hash, top.hash), size: left.size * 2 };
    }
    stack.push(top);
  }
  // Unequal subtrees join right to left: that is the RFC's split at the largest power of two.
  let hash = stack.pop()!.hash;
  while (stack.length > 0) hash = nodeHash(stack.pop()!.hash, hash);
  return hash;
}

/** The largest power of two strictly below n (n ≥ 2). */
export function splitOf(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The audit path of leaf `index` in the tree of the first `size` leaves (RFC 9162 2.1.3.1), leaf side first. */
export function inclusionProof(leaves: readonly Buffer[], index: number, size = leaves.length): Buffer[] {
  if (!(index >= 0 && index < size && size <= leaves.length)) throw new RangeError(`no leaf ${index} in a tree of ${size}`);
  const path: Buffer[] = [];
  let [from, to, m] = [0, size, index];
  const above: Buffer[] = [];
  while (to - from > 1) {
    const k = splitOf(to - from);
    if (m < k) {
      above.push(rootOf(leaves, from + k, to));
      to = from + k;
    } else {
      above.push(rootOf(leaves, from, from + k));
      from += k;
      m -= k;
    }
  }
  for (let i = above.length - 1; i >= 0; i--) path.push(above[i]!);
  return path;
}

/** The consistency proof between the trees of the first `first` and `second` leaves (RFC 9162 2.1.4.1). */
export function consistencyProof(leaves: readonly Buffer[], first: number, second = leaves.length): Buffer[] {
  if (!(first >= 0 && first <= second && second <= leaves.length)) throw new RangeError(`no consistency from ${first} to ${second}`);
  if (first === 0 || first === second) return [];
  const above: Buffer[] = [];
  let [from, to, m, whole] = [0, second, first, true];
  while (m !== to - from) {
    const k = splitOf(to - from);
    if (m <= k) {
      above.push(rootOf(leaves, from + k, to));
      to = from + k;
    } else {
      above.push(rootOf(leaves, from, from + k));
      from += k;
      m -= k;
      whole = false;
    }
  }
  if (!whole) above.push(rootOf(leaves, from, to));
  return above.reverse();
}

/** RFC 9162 2.1.3.2: does `path` prove leaf `index` (hash `leaf`) in the tree of `size` leaves with `root`? */
export function verifyInclusion(index: number, size: number, leaf: Buffer, path: readonly Buffer[], root: Buffer): boolean {
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size) && index >= 0 && index < size)) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        do {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        } while (fn % 2 === 0 && fn !== 0);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}

/** RFC 9162 2.1.4.2: does `proof` show the tree (`first`, `firstRoot`) is a prefix of (`second`, `secondRoot`)? */
export function verifyConsistency(first: number, second: number, firstRoot: Buffer, secondRoot: Buffer, proof: readonly Buffer[]): boolean {
  if (!(Number.isSafeInteger(first) && Number.isSafeInteger(second) && first >= 0 && first <= second)) return false;
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  if (first === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        do {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        } while (fn % 2 === 0 && fn !== 0);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return fr.equals(firstRoot) && sr.equals(secondRoot) && sn === 0;
}

function isPowerOfTwo(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

/**
 * The frontier of a tree of `size` leaves: the roots of its perfect subtrees, largest first (one per
 * bit set in `size`). Enough to append a leaf and to compute the root, without reading any leaf.
 */
export function pushToFrontier(frontier: readonly Buffer[], size: number, leaf: Buffer): Buffer[] {
  const next = [...frontier, leaf];
  // Each trailing 1 bit of the old size is a perfect subtree of the new leaf's size: they merge.
  for (let s = size; s % 2 === 1; s = Math.floor(s / 2)) {
    const right = next.pop()!;
    const left = next.pop()!;
    next.push(nodeHash(left, right));
  }
  return next;
}

export function rootOfFrontier(frontier: readonly Buffer[]): Buffer {
  if (frontier.length === 0) return EMPTY_ROOT;
  let hash = frontier[frontier.length - 1]!;
  for (let i = frontier.length - 2; i >= 0; i--) hash = nodeHash(frontier[i]!, hash);
  return hash;
}
