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
});
