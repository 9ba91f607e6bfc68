import { describe, expect, it } from 'vitest';
import { escapeHtml, renderEmail } from './html.js';

const evil = `<script>alert("x")</script> & 'quoted'`;

describe('escapeHtml', () => {
  it('escapes the characters that matter in text and quoted attributes', () => {
    expect(escapeHtml(evil)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;');
  });
});

describe('renderEmail', () => {
  it('escapes every value in the HTML body and keeps the plain text as written', () => {
    const { text, html } = renderEmail({
      heading: evil,
      paragraphs: [`First ${evil}`, `Second ${evil}`],
      action: { label: `Open ${evil}`, url: 'https://example.test/t/abc?a=1&b="2"#k' },
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toMatch(/"x"|'quoted'/);
    expect(html.match(/&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; &amp; &#39;quoted&#39;/g)).toHaveLength(5); // title, h1, 2 paragraphs, label
    expect(html).toContain('href="https://example.test/t/abc?a=1&amp;b=%222%22#k"');
    expect(text).toBe(`${evil}\n\nFirst ${evil}\n\nSecond ${evil}\n\nOpen ${evil}: https://example.test/t/abc?a=1&b=%222%22#k\n`);
  });

  it('renders without an action', () => {
    const { text, html } = renderEmail({ heading: 'Hi', paragraphs: ['Just so you know.'] });
    expect(text).toBe('Hi\n\nJust so you know.\n');
    expect(html).not.toContain('<a ');
  });

  it('refuses action URLs that are not http(s)', () => {
    for (const url of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,<script>x</script>', '/relative', 'mailto:a@example.test']) {
      expect(() => renderEmail({ heading: 'h', paragraphs: [], action: { label: 'l', url } }), url).toThrow(/URL/);
    }
  });

  it('keeps the paragraphs and line breaks of a typed message in the HTML part, still escaped', () => {
    const message = 'Hi both,\r\n\r\nHere are the <files>.\nCheers,\nAda\n\n\n\nP.S. & more';
    const { text, html } = renderEmail({ heading: 'Files', paragraphs: ['Intro.', message] });
    const bodies = [...html.matchAll(/<p style="margin:0 0 16px[^>]*>([\s\S]*?)<\/p>/g)].map((m) => m[1]);
    expect(bodies).toEqual(['Intro.', 'Hi both,', 'Here are the &lt;files&gt;.<br>\nCheers,<br>\nAda', 'P.S. &amp; more']);
    expect(text).toContain('Hi both,\n\nHere are the <files>.\nCheers,\nAda');
  });
});
