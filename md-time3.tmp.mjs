import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
const doc = (n) => { const parts = []; let bytes = 0;
for (let s = 0; bytes < n; s++) {
  const part = `## Section ${s}\n\nSome text about 𝒜 topic ${s}, with *emphasis* and \`code\`.\n\n### Details ${s}\n\n\`\`\`ts\nconst x${s} = ${s};\n\`\`\`\n\n| key | value |\n| --- | ----- |\n| k${s} | v${s} |\n\n`;
  parts.push(part); bytes += Buffer.byteLength(part);
}
return `# Document\n\n${parts.join('')}`; };
for (const n of [50_000, 100_000, 200_000, 400_000]) {
  const text = doc(n);
  let t = performance.now();
  fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  console.log(n, (performance.now() - t).toFixed(0));
}
