import { parseTree, type Node as JsonNode } from 'jsonc-parser';
import { isMap, isPair, isScalar, isSeq, parseDocument, type Pair } from 'yaml';
import type { UnlinedSymbol } from '@palimpsest/core/structure/symbol-lines';
import type { CodePointIndex } from '@palimpsest/core/text/code-points';

/**
 * Keys of YAML and JSON documents: a key whose value is a mapping is an `object` (and its keys are
 * named under it: parent is the key path), any other value a `config_item`. A scope covers key and value.
 * Sequences are not descended. Both parsers give UTF-16 offsets: converted here.
 */
export function yamlOutline(text: string, index: CodePointIndex): UnlinedSymbol[] {
  const out: UnlinedSymbol[] = [];
  const doc = parseDocument(text);
  if (isMap(doc.contents)) yamlMap(doc.contents.items, null, out);
  return out.map((s) => ({ ...s, end: withoutTrailingSpace(text, s.start, s.end) })).map((s) => ({ ...s, start: index.toCodePoint(s.start), end: index.toCodePoint(s.end) }));
}

function yamlMap(items: Pair[], parent: string | null, out: UnlinedSymbol[]): void {
  for (const pair of items) {
    if (!isPair(pair) || !isScalar(pair.key) || !pair.key.range) continue;
    const name = String(pair.key.value);
    const value = pair.value;
    const valueRange = value && (isScalar(value) || isMap(value) || isSeq(value)) ? value.range : null;
    // range[1] is where the value itself ends (range[2] would run on over trailing comments and blank lines)
    const end = valueRange ? valueRange[1] : pair.key.range[1];
    const map = isMap(value);
    out.push({ name, kind: map ? 'object' : 'config_item', parent, start: pair.key.range[0], end });
    if (map) yamlMap(value.items, parent === null ? name : `${parent}.${name}`, out);
  }
}

/** A block mapping's range runs on over the line break (and blank lines) after its last value: not part of the scope. */
function withoutTrailingSpace(text: string, start: number, end: number): number {
  let e = end;
  while (e > start && /\s/.test(text[e - 1]!)) e--;
  return e;
}

export function jsonOutline(text: string, index: CodePointIndex): UnlinedSymbol[] {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const out: UnlinedSymbol[] = [];
  if (root?.type === 'object') jsonObject(root, null, out);
  return out.map((s) => ({ ...s, start: index.toCodePoint(s.start), end: index.toCodePoint(s.end) }));
}

function jsonObject(node: JsonNode, parent: string | null, out: UnlinedSymbol[]): void {
  for (const property of node.children ?? []) {
    const [key, value] = property.children ?? [];
    if (property.type !== 'property' || !key || typeof key.value !== 'string') continue;
    const name = key.value;
    const object = value?.type === 'object';
    out.push({ name, kind: object ? 'object' : 'config_item', parent, start: property.offset, end: property.offset + property.length });
    if (object && value) jsonObject(value, parent === null ? name : `${parent}.${name}`, out);
  }
}
