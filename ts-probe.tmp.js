const { Parser, Language } = require('web-tree-sitter');
const fs = require('fs');
(async () => {
  await Parser.init();
  const lang = await Language.load(fs.readFileSync(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')));
  const p = new Parser(); p.setLanguage(lang);
  const show = (n, d) => { let s = '  '.repeat(d) + n.type + (n.isNamed ? '' : '(anon)') + ' ' + JSON.stringify(n.text).slice(0,40) + '\n'; for (let i = 0; i < n.childCount; i++) s += show(n.child(i), d+1); return s; };
  for (const l of process.argv.slice(2)) { const t = p.parse(l); console.log(JSON.stringify(l), t.rootNode.hasError); process.stdout.write(show(t.rootNode, 1)); }
})();
