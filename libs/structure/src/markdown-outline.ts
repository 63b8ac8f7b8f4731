import type { Nodes, Root, RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { UnlinedSymbol } from '@palimpsest/core/structure/symbol-lines';
import type { CodePointIndex } from '@palimpsest/core/text/code-points';

/**
 * Sections, fenced/indented code blocks and table rows of a Markdown document (CommonMark + GFM).
 * A section runs from its heading to the end of the last block before the next heading of the same or a
 * higher level; it is named by its heading's source text, punctuation and inline markup kept. A code block
 * is named `<lang>:<n>` (`code` without a language; n counts such blocks in the section), a table row by
 * its first cell's text (`row:<n>` when empty). mdast's offsets are UTF-16 units: converted here.
 */
export function markdownOutline(text: string, index: CodePointIndex): UnlinedSymbol[] {
  const root = fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const sections = sectionsOf(root, text);
  const out: UnlinedSymbol[] = sections.map((s) => ({ name: s.name, kind: 'section', parent: s.parent, start: s.start, end: s.end }));
  const ordinals = new Map<string, number>();
  const next = (key: string) => {
    const n = (ordinals.get(key) ?? 0) + 1;
    ordinals.set(key, n);
    return n;
  };
  visit(root, (node) => {
    if (node.type !== 'code' && node.type !== 'tableRow') return;
    const start = node.position?.start.offset ?? 0;
    const parent = innermost(sections, start);
    if (node.type === 'code') {
      const lang = node.lang || 'code';
      out.push({ name: `${lang}:${next(`${parent}\u0000code\u0000${lang}`)}`, kind: 'code_block', parent, start, end: node.position?.end.offset ?? start });
    } else {
      const ordinal = next(`${parent}\u0000row`);
      const first = node.children[0];
      const cell = first ? sourceOfChildren(first, text).trim() : '';
      out.push({ name: cell || `row:${ordinal}`, kind: 'table_row', parent, start, end: node.position?.end.offset ?? start });
    }
  });
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

function sectionsOf(root: Root, text: string): Section[] {
  const sections: Section[] = [];
  const open: Section[] = [];
  for (const block of root.children) {
    const end = block.position?.end.offset ?? 0;
    if (block.type === 'heading') {
      while (open.length && open[open.length - 1].depth >= block.depth) open.pop();
      const name = sourceOfChildren(block, text).trim();
      if (!name) continue;
      const parent = open.length ? open[open.length - 1].qualified : null;
      const section: Section = { name, parent, qualified: parent === null ? name : `${parent}.${name}`, depth: block.depth, start: block.position?.start.offset ?? 0, end };
      sections.push(section);
      open.push(section);
    } else {
      for (const s of open) s.end = end;
    }
  }
  return sections;
}

/** The qualified name of the innermost section holding UTF-16 offset `at`, or null before the first heading. */
function innermost(sections: Section[], at: number): string | null {
  let found: Section | null = null;
  for (const s of sections) if (s.start <= at && at < s.end && (!found || s.depth > found.depth)) found = s;
  return found ? found.qualified : null;
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
