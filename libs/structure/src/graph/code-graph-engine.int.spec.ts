import { join } from 'node:path';
import ts from 'typescript';
import type { GraphEdge } from '@palimpsest/core/structure/code-graph.port';
import { TreeSitterCodeGraph } from './code-graph-engine';
import { grepSites, PY_PROJECT, readerOf, sha256, stateOf, TS_PROJECT, writeProject } from './test-support/graph-projects';

const siteOf = (e: GraphEdge) => `${e.site.path}:${e.site.line}:${e.site.column}`;

/** The TypeScript language service's own answer, over the files on disk (its own host, not ours). */
function languageServiceReferences(files: Record<string, string>, path: string, name: string): string[] {
  const root = writeProject(files);
  const names = Object.keys(files).filter((p) => p.endsWith('.ts')).map((p) => join(root, p));
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => ({ moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext, noLib: true, types: [] }),
    getScriptFileNames: () => names,
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => (ts.sys.fileExists(f) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(f)!) : undefined),
    getCurrentDirectory: () => root,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
  };
  const service = ts.createLanguageService(host);
  const file = join(root, path);
  const at = files[path].indexOf(`function ${name}`) + 'function '.length;
  const out: string[] = [];
  for (const group of service.findReferences(file, at) ?? []) {
    for (const ref of group.references) {
      if (ref.fileName === file && ref.textSpan.start === at) continue;
      const source = service.getProgram()!.getSourceFile(ref.fileName)!;
      const pos = source.getLineAndCharacterOfPosition(ref.textSpan.start);
      out.push(`${ref.fileName.slice(root.length + 1)}:${pos.line + 1}:${pos.character + 1}`);
    }
  }
  return [...new Set(out)].sort();
}

describe('code graph engine', () => {
  const engine = new TreeSitterCodeGraph();
  const greet = 'function:src/lib.ts#greet';

  it('finds the uses of a TypeScript function as the language service does (resolved) and as grep does (declared)', async () => {
    const view = await engine.view(stateOf(TS_PROJECT), readerOf(TS_PROJECT));
    const resolved = await view.step([greet], 'incoming', ['resolved']);
    expect(resolved.edges.map(siteOf).sort()).toEqual(languageServiceReferences(TS_PROJECT, 'src/lib.ts', 'greet'));
    const declared = await view.step([greet], 'incoming', ['declared']);
    // Every occurrence but the declaration itself and the alias's own name in `greet as hi`.
    const oracle = grepSites(TS_PROJECT, ['greet', 'hi']).filter((s) => s !== 'src/lib.ts:1:17' && s !== 'src/alias.ts:1:19');
    expect(declared.edges.map(siteOf).sort()).toEqual(oracle);
    expect(new Set(declared.edges.map((e) => e.from))).toEqual(new Set([
      'function:src/lib.ts#shout', 'module:src/app.ts', 'function:src/app.ts#main', 'variable:src/app.ts#banner',
      'module:src/alias.ts', 'method:src/alias.ts#Greeter.run', 'function:src/namespace.ts#viaNamespace',
    ]));
  });

  it('reports the computed call of a module that imports the function as a gap', async () => {
    const view = await engine.view(stateOf(TS_PROJECT), readerOf(TS_PROJECT));
    const step = await view.step([greet], 'incoming', ['declared', 'resolved']);
    expect(step.gaps).toEqual([expect.objectContaining({ reason: 'dynamic_call', site: { path: 'src/dynamic.ts', line: 4, column: 10 } })]);
  });

  it('follows what a function uses, on both layers', async () => {
    const view = await engine.view(stateOf(TS_PROJECT), readerOf(TS_PROJECT));
    const step = await view.step(['function:src/app.ts#main'], 'outgoing', ['declared', 'resolved']);
    expect(step.edges).toEqual([expect.objectContaining({ to: greet, kind: 'calls', layer: 'resolved', site: { path: 'src/app.ts', line: 4, column: 10 } })]);
  });

  it('indexes Python on the declared layer, with a gap for the resolved one and for getattr', async () => {
    const view = await engine.view(stateOf(PY_PROJECT), readerOf(PY_PROJECT));
    const id = 'function:pkg/lib.py#greet';
    expect(view.node(id)).toEqual(expect.objectContaining({ kind: 'function', signature: 'def greet(name):', layers: ['declared'] }));
    const step = await view.step([id], 'incoming', ['declared', 'resolved']);
    expect(step.edges.map(siteOf).sort()).toEqual(grepSites(PY_PROJECT, ['greet']).filter((s) => s !== 'pkg/lib.py:1:5'));
    expect(step.gaps.map((g) => g.reason).sort()).toEqual(['declared_only_language', 'dynamic_call']);
  });

  it('re-indexes only the file an edit changed, and the old state still answers as before', async () => {
    const fresh = new TreeSitterCodeGraph();
    const edited = { ...TS_PROJECT, 'src/app.ts': TS_PROJECT['src/app.ts'].replace("return greet('app')", "return shoutOut('app')").replace("import { greet }", 'import { greet, shout as shoutOut }') };
    const reader = readerOf(TS_PROJECT, edited);
    const before = await fresh.view(stateOf(TS_PROJECT), reader);
    const parsedBefore = fresh.parsed;
    const after = await fresh.view(stateOf(edited), reader);
    expect(fresh.parsed - parsedBefore).toBe(1);
    const main = 'function:src/app.ts#main';
    const usesOf = async (view: typeof before) => (await view.step([greet], 'incoming', ['resolved'])).edges.filter((e) => e.from === main).length;
    expect(await usesOf(after)).toBe(0);
    expect(await usesOf(before)).toBe(1);
    const now = (await after.step([main], 'outgoing', ['resolved'])).edges.map((e) => e.to);
    expect(now).toEqual(['function:src/lib.ts#shout']);
    expect(after.node(main)!.version).not.toBe(before.node(main)!.version);
    expect(after.node(greet)!.version).toBe(before.node(greet)!.version);
    expect(stateOf(edited).get('src/app.ts')).toBe(sha256(edited['src/app.ts']));
  });
});
