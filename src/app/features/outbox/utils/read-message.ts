/**
 * Reads a kept RFC 5322 message for display: header fields with their encoded words (RFC 2047)
 * decoded, and the text and HTML parts with their transfer encoding (quoted-printable, base64)
 * undone, so that a link broken across quoted-printable lines reads, and copies, as one line.
 * Everything it returns is untrusted text: show it as text, never as HTML.
 */

export interface ReadableMessage {
  headers: { name: string; value: string }[];
  text: string | null;
  html: string | null;
}

interface Part {
  headers: { name: string; value: string }[];
  body: string;
}

function splitPart(raw: string): Part {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + 2);
  const headers: { name: string; value: string }[] = [];
  for (const line of head.split('\n')) {
    const last = headers[headers.length - 1];
    if (/^[ \t]/.test(line) && last) last.value += line;
    else {
      const colon = line.indexOf(':');
      if (colon > 0) headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
    }
  }
  return { headers, body };
}

const headerOf = (part: Part, name: string) => part.headers.find((h) => h.name.toLowerCase() === name)?.value ?? '';

function parameter(value: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(value);
  return match ? (match[1] ?? match[2]) : undefined;
}

function decodeBytes(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** Quoted-printable to bytes: soft line breaks joined, `=XX` turned back into the byte. */
function quotedPrintableBytes(text: string): Uint8Array {
  const joined = text.replace(/=[ \t]*\n/g, '');
  const out: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(...encoder.encode(joined[i]!));
  }
  return new Uint8Array(out);
}

function base64Bytes(text: string): Uint8Array {
  try {
    return Uint8Array.from(atob(text.replace(/[^A-Za-z0-9+/=]/g, '')), (c) => c.charCodeAt(0));
  } catch {
    return new TextEncoder().encode(text);
  }
}

function decodeBody(part: Part): string {
  const encoding = headerOf(part, 'content-transfer-encoding').toLowerCase();
  const charset = parameter(headerOf(part, 'content-type'), 'charset') ?? 'utf-8';
  if (encoding === 'quoted-printable') return decodeBytes(quotedPrintableBytes(part.body), charset);
  if (encoding === 'base64') return decodeBytes(base64Bytes(part.body), charset);
  return part.body;
}

/** `=?UTF-8?Q?Zo=C3=AB?=` and `=?UTF-8?B?…?=` words; whitespace between two encoded words goes. */
export function decodeHeaderValue(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B' ? decodeBytes(base64Bytes(text), charset) : decodeBytes(quotedPrintableBytes(text.replace(/_/g, ' ')), charset),
    );
}

function leaves(part: Part, depth = 0): Part[] {
  const type = headerOf(part, 'content-type');
  const boundary = parameter(type, 'boundary');
  if (!/^multipart\//i.test(type) || !boundary || depth > 5) return [part];
  const delimiter = `--${boundary}`;
  const lines = part.body.split('\n');
  const closed = lines.some((line) => line.trimEnd() === `${delimiter}--`);
  const sections = lines.reduce<string[][]>(
    (acc, line) => {
      if (line.trimEnd() === delimiter || line.trimEnd() === `${delimiter}--`) acc.push([]);
      else acc[acc.length - 1]!.push(line);
      return acc;
    },
    [[]],
  );
  // The preamble before the first delimiter and the epilogue after the last are not parts.
  return sections.slice(1, closed ? -1 : undefined).flatMap((lines) => leaves(splitPart(lines.join('\n')), depth + 1));
}

export function readMessage(raw: string): ReadableMessage {
  const top = splitPart(raw);
  let text: string | null = null;
  let html: string | null = null;
  for (const leaf of leaves(top)) {
    const type = (headerOf(leaf, 'content-type') || 'text/plain').toLowerCase();
    if (type.startsWith('text/plain') && text === null) text = decodeBody(leaf).replace(/\n+$/, '\n');
    else if (type.startsWith('text/html') && html === null) html = decodeBody(leaf);
  }
  return { headers: top.headers.map((h) => ({ name: h.name, value: decodeHeaderValue(h.value) })), text, html };
}
