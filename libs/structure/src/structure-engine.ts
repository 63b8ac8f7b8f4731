import type { StructureEngine, StructureLanguage, StructureOutline } from '@palimpsest/core/structure/structure.port';
import { lineStarts, withLines, type UnlinedSymbol } from '@palimpsest/core/structure/symbol-lines';
import { CodePointIndex } from '@palimpsest/core/text/code-points';
import { codeOutline } from './code-outline';
import { jsonOutline, yamlOutline } from './config-outline';
import { engineIdentity, verifyPinned } from './engine-identity';
import { markdownOutline } from './markdown-outline';

const BY_EXTENSION: Record<string, StructureLanguage> = {
  ts: 'typescript', mts: 'typescript', cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascript',
  py: 'python', pyi: 'python',
  md: 'markdown', markdown: 'markdown',
  yaml: 'yaml', yml: 'yaml',
  json: 'json', jsonc: 'json',
};

const BY_CONTENT_TYPE: Record<string, StructureLanguage> = {
  'text/typescript': 'typescript', 'application/typescript': 'typescript', 'text/x-typescript': 'typescript',
  'text/tsx': 'tsx',
  'text/javascript': 'javascript', 'application/javascript': 'javascript',
  'text/x-python': 'python', 'application/x-python': 'python',
  'text/markdown': 'markdown', 'text/x-markdown': 'markdown',
  'application/yaml': 'yaml', 'application/x-yaml': 'yaml', 'text/yaml': 'yaml', 'text/x-yaml': 'yaml',
  'application/json': 'json',
};

/** The filename's extension decides; a specific content type serves a file without a known extension. */
export function languageOf(filename: string, contentType: string): StructureLanguage | null {
  const dot = filename.lastIndexOf('.');
  const ext = dot >= 0 ? filename.slice(dot + 1).toLowerCase() : '';
  const mime = contentType.split(';')[0].trim().toLowerCase();
  return BY_EXTENSION[ext] ?? BY_CONTENT_TYPE[mime] ?? null;
}

async function symbolsOf(language: StructureLanguage, text: string, index: CodePointIndex): Promise<UnlinedSymbol[]> {
  switch (language) {
    case 'typescript':
    case 'tsx':
    case 'javascript':
    case 'python':
      return codeOutline(language, text, index);
    case 'markdown':
      return markdownOutline(text, index);
    case 'yaml':
      return yamlOutline(text, index);
    case 'json':
      return jsonOutline(text, index);
  }
}

/** The structural engine: one pass of the language's pinned parser over a canonical LF text. */
export function structureEngine(): StructureEngine {
  const verified = new Set<StructureLanguage>();
  return {
    languageOf,
    async outline(language, text): Promise<StructureOutline> {
      if (!verified.has(language)) {
        verifyPinned(language);
        verified.add(language);
      }
      const index = new CodePointIndex(text);
      const symbols = withLines(await symbolsOf(language, text, index), lineStarts(text));
      return { language, engine: engineIdentity(language), symbols };
    },
  };
}
