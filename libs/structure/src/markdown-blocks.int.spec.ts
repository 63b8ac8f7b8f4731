import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { scanMarkdownBlocks } from './markdown-blocks';
import { markdownBlocks, mdastBlocks } from './markdown-outline';

/** Lines of the kinds the scan models, and of the kinds it must hand to the full parse. */
const word = fc.constantFrom('\\|', '|', '##', '#5', '```', '~~~', ':--', '---', '\\', 'alpha', 'Beta', '𝒜𝒷', '😀', 'x_y', '*em*', '**strong**', '`code`', '`a|b`', '[link](u)', '<b>', '\\|', '\\\\', '\\#', '&amp;', '#', '|', ':', '!', '~~s~~', 'www.x.io', ' ');
const phrase = fc.array(word, { minLength: 0, maxLength: 5 }).map((ws) => ws.join(' '));
const indent = fc.constantFrom('', ' ', '  ', '   ');
const trailing = fc.constantFrom('', ' ', '  ');
const modelled = fc.oneof(
  fc.tuple(indent, fc.integer({ min: 1, max: 7 }), phrase, fc.constantFrom('', ' #', ' ##', '#', ' \\#'), trailing).map(([i, d, p, c, t]) => `${i}${'#'.repeat(d)} ${p}${c}${t}`),
  fc.tuple(indent, phrase, trailing).map(([i, p, t]) => `${i}${p}${t}`),
  fc.constant(''),
  fc.constant('   '),
  fc.tuple(indent, fc.constantFrom('```', '````', '~~~'), fc.constantFrom('', 'ts', ' sh x', 'py{1}', '😀'), fc.array(phrase, { maxLength: 3 }), fc.constantFrom('```', '````', '~~~', '  ```  '))
    .map(([i, f, info, body, close]) => [`${i}${f}${info}`, ...body, close].join('\n')),
  fc.tuple(indent, fc.integer({ min: 1, max: 3 }), fc.array(fc.tuple(phrase, phrase, phrase), { maxLength: 4 }), fc.boolean(), trailing).map(([i, n, rows, edge, t]) => {
    const line = (cells: string[]) => (edge ? `| ${cells.join(' | ')} |` : cells.join(' | ')) + t;
    const header = line(['h1', 'h2', 'h3'].slice(0, n));
    const delimiter = edge ? `|${Array(n).fill(' --- ').join('|')}|` : Array(n).fill(':--').join(' | ');
    return [`${i}${header}`, delimiter, ...rows.map((r) => `${i}${line(r.slice(0, n))}`)].join('\n');
  }),
);
const unmodelled = fc.constantFrom('> quote', '- item', '1. item', '* * *', '---', '===', '    indented', '<div>', '[ref]: /u', '\tx', '```', '``` a`b', '~~~ a\\b');
/** Lines of block-significant characters in any order: the scan's line classification against micromark's. */
const noise = fc.array(fc.constantFrom(' ', ' ', '#', '|', '-', ':', '`', '~', '\\', 'a', '😀', '*', '_', '=', '>', '<', '[', ']', '&', '!'), { maxLength: 12 }).map((cs) => cs.join(''));
/** Multi-line blocks the scan leaves to the full parse, with blank lines inside them. */
const containers = fc.oneof(
  fc.tuple(fc.constantFrom('- ', '* ', '1. ', '10) '), phrase, fc.constantFrom('', '\n', '\n\n')).map(([m, p, gap]) => `${m}${p}${gap}  continued ${p}`),
  fc.tuple(fc.constantFrom('- ', '1. '), fc.constantFrom('```', '~~~'), phrase, fc.boolean()).map(([m, f, p, closed]) => `${m}item\n\n  ${f}ts\n  ${p}\n\n# not a heading in code\n${closed ? `  ${f}` : ''}`),
  fc.tuple(phrase, fc.boolean()).map(([p, lazy]) => `> ${p}\n${lazy ? 'lazy' : '>'} line\n\n> ## quoted heading`),
  fc.tuple(fc.constantFrom('<div>', '<!-- c', '<pre>', '<?x'), phrase).map(([o, p]) => `${o}\n${p}\n\n# inside or not\n\n${o === '<!-- c' ? '-->' : o === '<pre>' ? '</pre>' : o === '<?x' ? '?>' : '</div>'}`),
  fc.tuple(phrase).map(([p]) => `${p}\n===\n\n    indented ${p}\n\n[d]: /u 'title'`),
  fc.tuple(fc.constantFrom('<div>', '> q', '- i'), fc.constantFrom('```', '~~~')).map(([o, f]) => `${o}\n${f}\n\n${f}\ncode\n\nfoo\n${f}`),
);
const documentOf = (lines: fc.Arbitrary<string>) => fc.array(lines, { maxLength: 24 }).map((ls) => ls.join('\n'));

describe('the Markdown block scan gives what the full mdast parse gives', () => {
  it('on generated documents of modelled blocks (and declines the rest, never answering differently)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(documentOf(fc.oneof({ weight: 6, arbitrary: modelled }, { weight: 1, arbitrary: unmodelled }, { weight: 6, arbitrary: noise })), fc.boolean(), (doc, finalNewline) => {
        const text = finalNewline ? `${doc}\n` : doc;
        const scanned = scanMarkdownBlocks(text);
        if (scanned === null) return;
        accepted++;
        expect(scanned).toEqual(mdastBlocks(text));
      }),
      { numRuns: 800 },
    );
    expect(accepted).toBeGreaterThan(200);
  });

  it('on generated documents with lists, quotes, HTML and indented code: pieces scanned or parsed give the full parse blocks', () => {
    fc.assert(
      fc.property(documentOf(fc.oneof({ weight: 4, arbitrary: modelled }, { weight: 1, arbitrary: unmodelled }, { weight: 2, arbitrary: containers }, { weight: 2, arbitrary: noise })), (text) => {
        expect(markdownBlocks(text)).toEqual(mdastBlocks(text));
      }),
      { numRuns: 500 },
    );
    // found by the generator: an open fence in a list item ends with its container, trailing blank lines kept
    for (const text of ['- ~~~ x ~~~\n\n\\|', '- ~~~\n\n\n\nx\n\n- ~~~\n\n# h\n', '- item\n\n  ```ts\n\n# heading\n  ```\n\n:', '``` a`b\n- i\n\n  ```\n\n&']) {
      expect(markdownBlocks(text)).toEqual(mdastBlocks(text));
    }
  });

  it('declines what it does not model', () => {
    for (const doc of ['# A\n\n> quote', '- item', 'para\n===', 'a\n\n    code', '<div>\nx\n</div>', '[a]: /u', 'a\tb', '```\nunclosed']) expect(scanMarkdownBlocks(doc)).toBeNull();
  });

  it('serves the fixture and a 100 KB document of sections, code and tables', () => {
    const guide = readFileSync(join(__dirname, 'test-support', 'fixtures', 'guide.md'), 'utf8');
    expect(scanMarkdownBlocks(guide)).toEqual(mdastBlocks(guide));
    const parts = Array.from({ length: 800 }, (_, s) => `## Section ${s}\n\nText 𝒜 ${s} *em* \`c\`.\n\n### Details ${s}\n\n\`\`\`ts\nconst x = ${s};\n\`\`\`\n\n| key | value |\n| --- | ----- |\n| k${s} | v${s} |\n`);
    const large = `# Document\n\n${parts.join('\n')}`;
    expect(large.length).toBeGreaterThan(100_000);
    expect(scanMarkdownBlocks(large)).toEqual(mdastBlocks(large));
  });
});
