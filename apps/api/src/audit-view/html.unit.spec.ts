import { escapeHtml, html } from './html';

describe('the audit view\'s HTML template', () => {
  it('escapes every interpolated text, in element content and in attributes', () => {
    const hostile = `<script>alert("x")</script>' onmouseover='y' &amp;`;
    const out = html`<p title="${hostile}">${hostile}</p>`.text;
    expect(out).toBe(`<p title="${escapeHtml(hostile)}">${escapeHtml(hostile)}</p>`);
    expect(out).not.toContain('<script>');
    expect(out.match(/"/g)).toHaveLength(2);
    expect(out).toContain('&amp;amp;');
  });

  it('nests Html as it is, lists joined, and drops null, undefined and false', () => {
    const row = (n: number) => html`<li>${n}</li>`;
    expect(html`<ul>${[1, 2].map(row)}${null}${undefined}${false}</ul>`.text).toBe('<ul><li>1</li><li>2</li></ul>');
  });
});
