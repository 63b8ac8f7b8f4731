import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
const parts = []; let bytes = 0;
for (let s = 0; bytes < 300000; s++) {
  const part = `## Section ${s}\n\nSome text about 𝒜 topic ${s}, with *emphasis* and \`code\`.\n\n### Details ${s}\n\n\`\`\`ts\nconst x${s} = ${s};\n\`\`\`\n\n| key | value |\n| --- | ----- |\n| k${s} | v${s} |\n\n`;
  parts.push(part); bytes += Buffer.byteLength(part);
}
const text = `# Document\n\n${parts.join('')}`;
fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
