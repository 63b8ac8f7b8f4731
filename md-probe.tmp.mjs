import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
const show = (text) => {
  const root = fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const out = [];
  const visit = (n, d) => { if (n.type !== 'root' && n.type !== 'text' && n.type!=='tableCell') out.push('  '.repeat(d) + n.type + ' ' + JSON.stringify(text.slice(n.position.start.offset, n.position.end.offset)) + (n.type==='code'? ' lang=' + n.lang : '')); for (const c of n.children ?? []) visit(c, d + 1); };
  visit(root, 0);
  console.log(JSON.stringify(text) + '\n' + out.join('\n'));
};
show('   ## Head ##   \npara  \nline2 x  \n\n  ```js  x  \ncode\n  ```   \nafter');
show('| a | b |  \n|---|---|\n| c \\| d | e |  \nf | g\n\nnext');
show('a | b\n-- | --\n`x|y` | z\n  | empty |\n\ntext\n| h |\n|---|\nrow\n# head');
show('para\n| h |\n|---|\n| r |');
show('#\n## #\n# x #\\#  \n```\nunclosed');
