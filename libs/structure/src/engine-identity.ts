import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { StructureLanguage } from '@palimpsest/core/structure/structure.port';

/**
 * The engine and its parsers are pinned: an observation records exactly which engine named its scope,
 * and submission re-verifies with the same identity. An installed version other than the pin refuses
 * to load (EngineVersionError) rather than name scopes differently under the same identity.
 */
/** @2: TypeScript interfaces, type aliases, enums, namespaces (and Python `type`) and overload sets as one scope. */
export const ENGINE_NAME = 'palimpsest-structure@2';

export const PINNED = {
  'web-tree-sitter': '0.27.2',
  'tree-sitter-typescript': '0.23.2',
  'tree-sitter-javascript': '0.25.0',
  'tree-sitter-python': '0.25.0',
  'mdast-util-from-markdown': '2.1.0',
  'mdast-util-gfm': '3.1.0',
  'micromark-extension-gfm': '3.0.0',
  yaml: '2.9.1',
  'jsonc-parser': '3.3.1',
} as const;
export type PinnedPackage = keyof typeof PINNED;

const PARSERS: Record<StructureLanguage, PinnedPackage[]> = {
  typescript: ['web-tree-sitter', 'tree-sitter-typescript'],
  tsx: ['web-tree-sitter', 'tree-sitter-typescript'],
  javascript: ['web-tree-sitter', 'tree-sitter-javascript'],
  python: ['web-tree-sitter', 'tree-sitter-python'],
  markdown: ['mdast-util-from-markdown', 'mdast-util-gfm', 'micromark-extension-gfm'],
  yaml: ['yaml'],
  json: ['jsonc-parser'],
};

/** The identity string recorded with every observation of this language. */
export function engineIdentity(language: StructureLanguage): string {
  return [ENGINE_NAME, ...PARSERS[language].map((p) => `${p}@${PINNED[p]}`)].join(' ');
}

export class EngineVersionError extends Error {
  constructor(readonly pkg: string, readonly installed: string, readonly pinned: string) {
    super(`${pkg} ${installed} is installed; the structural engine is pinned to ${pinned}`);
  }
}

/** The installed version, read from the package's own package.json (found by walking up from its entry). */
export function installedVersion(pkg: PinnedPackage): string {
  let dir = dirname(require.resolve(pkg));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === pkg && manifest.version) return manifest.version;
    } catch {
      // no manifest here: keep walking up
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json found for ${pkg}`);
    dir = up;
  }
}

export function verifyPinned(language: StructureLanguage): void {
  for (const pkg of PARSERS[language]) {
    const installed = installedVersion(pkg);
    if (installed !== PINNED[pkg]) throw new EngineVersionError(pkg, installed, PINNED[pkg]);
  }
}
