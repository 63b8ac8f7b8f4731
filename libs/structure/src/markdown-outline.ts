import type { Nodes, Root, RootContent } from 'mdast';
import type { UnlinedSymbol } from '@palimpsest/core/structure/symbol-lines';
import type { CodePointIndex } from '@palimpsest/core/text/code-points';
import { pieceStarts, scanMarkdownBlocks, type Leaf, type MarkdownBlocks, type RootBlock } from './markdown-blocks';

/**
 * Sections, fenced/indented code blocks and table rows of a Markdown document (CommonMark + GFM).
 * A section runs from its heading to the end of the last block before the next heading of the same or a
 * higher level; it is named by its heading's source text, punctuation and inline markup kept. A code block
 * is named `<lang>:<n>` (`code` without a language; n counts such blocks in the section), a table row by
 * its first cell's text (`row:<n>` when empty). Offsets are UTF-16 units until converted here.
 *
 * The document is cut where every block has ended (pieceStarts); each piece's blocks come from a
 * block-level scan when it is made only of what the scan models (no inline parse: ~30× faster), else
 * from the full mdast parse of that piece. The result is the full parse's (markdown-blocks.int.spec.ts
 * compares them on generated documents).
 */
export function markdownOutline(text: string, index: CodePointIndex): UnlinedSymbol[] {
  return outlineOf(markdownBlocks(text), index);
}

/**
 * Consecutive pieces the scan declines are parsed together: one full parse per run of them. A piece ends
 * before the line feed ahead of the next piece, as in the whole text (a fence left open in a list item
 * takes the blank lines up to its container's end, and no empty line more).
 */
export function markdownBlocks(text: string): MarkdownBlocks {
  const starts = pieceStarts(text);
  const endOf = (i: number) => (i + 1 < starts.length ? starts[i + 1] - 1 : text.length);
  const out: MarkdownBlocks = { root: [], leaves: [] };
  let declined: number | null = null;
  const parseDeclined = (to: number) => {
    if (declined !== null) append(out, mdastBlocks(text.slice(declined, to)), declined);
    declined = null;
  };
  for (let i = 0; i < starts.length; i++) {
    const scanned = scanMarkdownBlocks(text.slice(starts[i], endOf(i)));
    if (scanned === null) {
      declined ??= starts[i];
      continue;
    }
    parseDeclined(starts[i] - 1);
    append(out, scanned, starts[i]);
  }
  parseDeclined(text.length);
  return out;
}

function append(out: MarkdownBlocks, blocks: MarkdownBlocks, from: number): void {
  for (const b of blocks.root) out.root.push(b.heading ? { ...b, start: b.start + from, end: b.end + from } : { heading: false, end: b.end + from });
  for (const l of blocks.leaves) out.leaves.push({ ...l, start: l.start + from, end: l.end + from });
}

let parser: ((text: string) => Root) | null = null;

/**
 * The parser and its GFM extensions, loaded on the first parse: every process that dispatches loads this
 * file, and most never parse Markdown. Constructs and handlers are stateless, so they are built once.
 */
function parseMarkdown(text: string): Root {
  if (!parser) {
    const { fromMarkdown } = require('mdast-util-from-markdown') as typeof import('mdast-util-from-markdown');
    const { gfmFromMarkdown } = require('mdast-util-gfm') as typeof import('mdast-util-gfm');
    const { gfm } = require('micromark-extension-gfm') as typeof import('micromark-extension-gfm');
    const extensions = [gfm()];
    const mdastExtensions = [gfmFromMarkdown()];
    parser = (t) => fromMarkdown(t, { extensions, mdastExtensions });
  }
  return parser(text);
}

/** The full parse's blocks: the reference the scan is held to. */
export function mdastBlocks(text: string): MarkdownBlocks {
  const root = parseMarkdown(text);
  const blocks: RootBlock[] = root.children.map((block) => {
    const end = block.position?.end.offset ?? 0;
    if (block.type !== 'heading') return { heading: false, end };
    return { heading: true, depth: block.depth, start: block.position?.start.offset ?? 0, end, name: sourceOfChildren(block, text).trim() };
  });
  const leaves: Leaf[] = [];
  visit(root, (node) => {
    const start = node.position?.start.offset ?? 0;
    const end = node.position?.end.offset ?? start;
    if (node.type === 'code') leaves.push({ kind: 'code', start, end, lang: node.lang ?? null });
    else if (node.type === 'tableRow') {
      const first = node.children[0];
      leaves.push({ kind: 'row', start, end, firstCell: first ? sourceOfChildren(first, text).trim() : '' });
    }
  });
  return { root: blocks, leaves };
}

function outlineOf(blocks: MarkdownBlocks, index: CodePointIndex): UnlinedSymbol[] {
  const sections = sectionsOf(blocks.root);
  const out: UnlinedSymbol[] = sections.map((s) => ({ name: s.name, kind: 'section', parent: s.parent, start: s.start, end: s.end }));
  const ordinals = new Map<string, number>();
  const next = (key: string) => {
    const n = (ordinals.get(key) ?? 0) + 1;
    ordinals.set(key, n);
    return n;
  };
  const innermost = innermostSweep(sections);
  for (const leaf of blocks.leaves) {
    const parent = innermost(leaf.start);
    if (leaf.kind === 'code') {
      const lang = leaf.lang || 'code';
      out.push({ name: `${lang}:${next(`${parent}\u0000code\u0000${lang}`)}`, kind: 'code_block', parent, start: leaf.start, end: leaf.end });
    } else {
      const ordinal = next(`${parent}\u0000row`);
      out.push({ name: leaf.firstCell || `row:${ordinal}`, kind: 'table_row', parent, start: leaf.start, end: leaf.end });
    }
  }
  return out.map((s) => ({ ...s, start: index.toCodePoint(s.start), end: index.toCodePoint(s.end) }));
}

interface Section {
  name: string;
  parent: string | null;
  qualified: string;
  depth: number;
  start: number;
  end: number;
}

function sectionsOf(root: RootBlock[]): Section[] {
  const sections: Section[] = [];
  const open: Section[] = [];
  for (const block of root) {
    if (block.heading) {
      while (open.length && open[open.length - 1].depth >= block.depth) open.pop();
      if (!block.name) continue;
      const parent = open.length ? open[open.length - 1].qualified : null;
      const section: Section = { name: block.name, parent, qualified: parent === null ? block.name : `${parent}.${block.name}`, depth: block.depth, start: block.start, end: block.end };
      sections.push(section);
      open.push(section);
    } else {
      for (const s of open) s.end = block.end;
    }
  }
  return sections;
}

/**
 * The qualified name of the innermost section holding UTF-16 offset `at`, or null before the first
 * heading, for offsets asked in ascending order. Sections nest (a deeper one ends no later than its
 * parent), so the open ones form a chain: one sweep instead of a scan of every section per leaf.
 */
function innermostSweep(sections: Section[]): (at: number) => string | null {
  const chain: Section[] = [];
  let next = 0;
  return (at) => {
    while (next < sections.length && sections[next].start <= at) {
      const s = sections[next++];
      while (chain.length && chain[chain.length - 1].end <= s.start) chain.pop();
      chain.push(s);
    }
    while (chain.length && chain[chain.length - 1].end <= at) chain.pop();
    return chain.length ? chain[chain.length - 1].qualified : null;
  };
}

/** A node's inline source (first child's start to last child's end): the heading text as written. */
function sourceOfChildren(node: Nodes, text: string): string {
  if (!('children' in node) || node.children.length === 0) return '';
  const first = node.children[0].position?.start.offset;
  const last = node.children[node.children.length - 1].position?.end.offset;
  return first === undefined || last === undefined ? '' : text.slice(first, last);
}

function visit(node: Nodes, fn: (node: Nodes | RootContent) => void): void {
  fn(node);
  if ('children' in node) for (const child of node.children) visit(child, fn);
}
