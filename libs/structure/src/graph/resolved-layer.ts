import type ts from 'typescript';

/** The compiler loads on the first resolved query, not with the process (it is a large module). */
let compiler: typeof ts | null = null;
const typescript = (): typeof ts => (compiler ??= require('typescript') as typeof ts);
import type { ProjectState } from '@palimpsest/core/structure/code-graph.port';

/**
 * The resolved layer for TypeScript and JavaScript: the TypeScript compiler's language service over one
 * project state held in memory (no disk reads, no default library: references and definitions need the
 * project's own declarations only). One service per engine; a query on another state swaps the state in,
 * and the service re-reads only the files whose content hash (its script version) differs.
 */

const ROOT = '/project/';
const SCRIPT = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

export interface ResolvedSpan {
  path: string;
  offset: number;
}

export class ResolvedLayer {
  private state: ProjectState = new Map();
  private names: string[] = [];
  private readonly service: ts.LanguageService;

  constructor(private readonly textOf: (hash: string) => string | undefined) {
    const ts = typescript();
    this.service = ts.createLanguageService(this.host(ts), ts.createDocumentRegistry());
  }

  static serves(path: string): boolean {
    return SCRIPT.test(path);
  }

  use(state: ProjectState): void {
    if (state === this.state) return;
    this.state = state;
    this.names = [...state.keys()].filter((p) => SCRIPT.test(p)).map((p) => ROOT + p);
  }

  /** Every reference of the symbol named at `offset` (its declarations included), across the state. */
  references(path: string, offset: number): ResolvedSpan[] {
    const groups = this.service.findReferences(ROOT + path, offset) ?? [];
    return groups.flatMap((g) => g.references).flatMap((r) => this.span(r.fileName, r.textSpan.start));
  }

  definitions(path: string, offset: number): ResolvedSpan[] {
    return (this.service.getDefinitionAtPosition(ROOT + path, offset) ?? []).flatMap((d) => this.span(d.fileName, d.textSpan.start));
  }

  private span(fileName: string, offset: number): ResolvedSpan[] {
    return fileName.startsWith(ROOT) ? [{ path: fileName.slice(ROOT.length), offset }] : [];
  }

  private text(fileName: string): string | undefined {
    const hash = fileName.startsWith(ROOT) ? this.state.get(fileName.slice(ROOT.length)) : undefined;
    return hash === undefined ? undefined : this.textOf(hash);
  }

  private host(ts: typeof import('typescript')): ts.LanguageServiceHost {
    return {
      getCompilationSettings: () => ({
        allowJs: true, noLib: true, types: [], target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler, jsx: ts.JsxEmit.Preserve, allowImportingTsExtensions: true, noEmit: true,
      }),
      getScriptFileNames: () => this.names,
      getScriptVersion: (f) => this.state.get(f.slice(ROOT.length)) ?? '',
      getScriptSnapshot: (f) => {
        const t = this.text(f);
        return t === undefined ? undefined : ts.ScriptSnapshot.fromString(t);
      },
      getCurrentDirectory: () => ROOT,
      getDefaultLibFileName: () => `${ROOT}__no_lib__.d.ts`,
      fileExists: (f) => this.text(f) !== undefined,
      readFile: (f) => this.text(f),
      directoryExists: (d) => {
        const prefix = d.endsWith('/') ? d.slice(ROOT.length) : `${d.slice(ROOT.length)}/`;
        return d === ROOT.slice(0, -1) || d === ROOT || this.names.some((n) => n.startsWith(ROOT + prefix));
      },
      getDirectories: () => [],
    };
  }
}
