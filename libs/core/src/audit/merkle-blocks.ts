import { nodeHashBinary, rootOf, type HashInput } from './merkle-log';

/**
 * A run of consecutive leaves folded into aligned perfect subtrees, so slices of the log hashed apart
 * join into the one RFC 9162 tree: a block of `size` leaves from `start` merges with the block before it
 * only when that one is its sibling (same size, starting at a multiple of twice the size). Fed every leaf
 * from 0, it is the one-pass stack of rootOf; fed the blocks of successive slices, the same.
 */
export interface MerkleBlock {
  start: number;
  size: number;
  /** Lowercase hex (64 characters) or latin1 (32). */
  hash: string;
}

export class MerkleBlocks {
  private readonly list: MerkleBlock[] = [];

  push(start: number, size: number, hash: HashInput): void {
    let block = { start, size, hash: typeof hash === 'string' ? hash : hash.toString('latin1') };
    for (let top = this.list.at(-1); top && top.size === block.size && top.start + top.size === block.start && top.start % (2 * block.size) === 0; top = this.list.at(-1)) {
      this.list.pop();
      block = { start: top.start, size: top.size * 2, hash: nodeHashBinary(top.hash, block.hash) };
    }
    this.list.push(block);
  }

  blocks(): MerkleBlock[] {
    return this.list;
  }

  /** Leaves covered from 0 without a gap; else null (the caller names the gap). */
  size(): number | null {
    let next = 0;
    for (const b of this.list) {
      if (b.start !== next) return null;
      next += b.size;
    }
    return next;
  }

  /** The root of the leaves folded so far: the blocks joined right to left (the RFC's split). */
  root(): Buffer {
    if (this.list.length === 0) return rootOf([]);
    let root: HashInput = this.list.at(-1)!.hash;
    for (let i = this.list.length - 2; i >= 0; i--) root = nodeHashBinary(this.list[i]!.hash, root);
    return Buffer.from(root, root.length === 64 ? 'hex' : 'latin1');
  }
}
