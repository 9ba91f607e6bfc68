import net from 'node:net';
import zlib from 'node:zlib';

/**
 * HTTP/1.1 over a plain socket, for the fuzz requests fetch refuses to send: a NUL or a lone CR in a
 * header, a space in a header name, UTF-8 in a request line. The server's HTTP parser answers those
 * itself, so the answer is read as it comes: status line, headers, then the body (de-chunked and
 * decompressed) until the server closes the connection, which `Connection: close` asks it to.
 */

export interface RawAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
}

export function rawHttp(
  url: URL,
  request: { method: string; target: string; headers: [string, string][]; body?: Buffer },
  signal: AbortSignal,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    const abort = () => socket.destroy(Object.assign(new Error('aborted: no answer in time'), { name: 'TimeoutError' }));
    signal.addEventListener('abort', abort, { once: true });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (err) => {
      signal.removeEventListener('abort', abort);
      reject(err);
    });
    socket.on('close', () => {
      signal.removeEventListener('abort', abort);
      if (signal.aborted) return reject(Object.assign(new Error('no answer in time'), { name: 'TimeoutError' }));
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (err) {
        reject(err as Error);
      }
    });
    const head = [
      `${request.method} ${request.target} HTTP/1.1`,
      `Host: ${url.host}`,
      'Connection: close',
      ...request.headers.map(([name, value]) => `${name}: ${value}`),
      ...(request.body ? [`Content-Length: ${request.body.length}`] : []),
      '',
      '',
    ].join('\r\n');
    socket.write(Buffer.from(head, 'utf8'));
    if (request.body) socket.write(request.body);
  });
}

function parseAnswer(bytes: Buffer): RawAnswer {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete answer: ${JSON.stringify(bytes.subarray(0, 200).toString('latin1'))}`);
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  if (!status) throw new Error(`not an HTTP answer: ${JSON.stringify(statusLine)}`);
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  let body = bytes.subarray(end + 4);
  if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) body = dechunk(body);
  // As fetch does: a body compressed because the request accepted it is read decompressed.
  const encoding = headers.get('content-encoding')?.toLowerCase();
  if (encoding === 'gzip') body = zlib.gunzipSync(body);
  else if (encoding === 'br') body = zlib.brotliDecompressSync(body);
  else if (encoding === 'deflate') body = zlib.inflateSync(body);
  return { status, headers, body };
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
