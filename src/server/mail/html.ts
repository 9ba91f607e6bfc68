import { DEFAULT_LOCALE, textDirection, type Locale } from '../../contract/locales.js';

/** Escapes a value for HTML text and quoted attribute values. Use it for every untrusted value in a mail body. */
const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => entities[ch] ?? ch);
}

export interface EmailContent {
  /** The language it is written in (English when not given): `<html lang dir>`, so that Arabic reads right to left. */
  locale?: Locale;
  heading: string;
  paragraphs: string[];
  /** A short table after the paragraphs (files and their sizes): label, then value, a row each. */
  table?: { summary: string; rows: [string, string][]; more?: string };
  /** A button in HTML, a plain line in text. The URL must be http(s). */
  action?: { label: string; url: string };
}

/** An http(s) URL in its normalized form; anything else (javascript:, data:, relative) throws. */
export function safeLinkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError('mail: action URL is not an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError('mail: action URL must be http or https');
  return parsed.href;
}

/**
 * Text as people type it: blank lines separate paragraphs, single line breaks stay line breaks.
 * Each paragraph comes back as its lines, still unescaped.
 */
function typedParagraphs(text: string): string[][] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n\s*/)
    .map((p) => p.split('\n').map((line) => line.trimEnd()))
    .filter((lines) => lines.some((line) => line.trim() !== ''));
}

/**
 * A plain text body and a simple HTML body from the same parts, every value escaped. Inline CSS is
 * fine here: mail clients do not see the app's CSP, and most ignore <style> blocks anyway.
 */
export function renderEmail(content: EmailContent): { text: string; html: string } {
  const action = content.action ? { label: content.action.label, url: safeLinkUrl(content.action.url) } : null;

  const table = content.table;
  const textTable = table ? [[table.summary, ...table.rows.map(([label, value]) => `  ${label}  ${value}`), ...(table.more ? [`  ${table.more}`] : [])].join('\n')] : [];
  const text = [content.heading, ...content.paragraphs.map((p) => p.replace(/\r\n?/g, '\n')), ...textTable, ...(action ? [`${action.label}: ${action.url}`] : [])].join('\n\n') + '\n';

  const font = 'font-family:-apple-system,BlinkMacSystemFont,Segoe UI,Helvetica,Arial,sans-serif';
  const paragraphs = content.paragraphs
    .flatMap(typedParagraphs)
    .map((lines) => `<p style="margin:0 0 16px;${font};font-size:15px;line-height:1.5;color:#1f2937">${lines.map(escapeHtml).join('<br>\n')}</p>`)
    .join('\n');
  const cell = `padding:6px 0;${font};font-size:14px;line-height:1.4;color:#1f2937;border-bottom:1px solid #e5e7eb`;
  const tableHtml = table
    ? `<p style="margin:0 0 8px;${font};font-size:14px;font-weight:600;color:#111827">${escapeHtml(table.summary)}</p>\n` +
      `<table role="presentation" style="width:100%;border-collapse:collapse;margin:0 0 16px">\n` +
      table.rows
        .map(([label, value]) => `<tr><td style="${cell};word-break:break-all">${escapeHtml(label)}</td><td style="${cell};padding-left:12px;text-align:right;white-space:nowrap;color:#4b5563">${escapeHtml(value)}</td></tr>`)
        .join('\n') +
      (table.more ? `\n<tr><td colspan="2" style="${cell};color:#4b5563">${escapeHtml(table.more)}</td></tr>` : '') +
      `\n</table>`
    : '';
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 20px;border-radius:6px;background:#4f46e5;color:#ffffff;text-decoration:none;${font};font-size:15px;font-weight:600">${escapeHtml(action.label)}</a></p>\n` +
      `<p style="margin:0 0 16px;${font};font-size:13px;line-height:1.5;color:#6b7280;word-break:break-all">${escapeHtml(action.url)}</p>`
    : '';
  const locale = content.locale ?? DEFAULT_LOCALE;
  const html = `<!doctype html>
<html lang="${locale}" dir="${textDirection(locale)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(content.heading)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6">
<div style="max-width:560px;margin:0 auto;padding:32px 24px;background:#ffffff">
<h1 style="margin:0 0 20px;${font};font-size:20px;line-height:1.3;color:#111827">${escapeHtml(content.heading)}</h1>
${paragraphs}
${tableHtml}
${button}
</div>
</body>
</html>
`;
  return { text, html };
}
