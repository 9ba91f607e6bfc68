import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../contract/errors.js';
import { startTestServer, type TestServer } from '../test/harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parse(answer: string) {
  const [head, body] = answer.split('\r\n\r\n', 2) as [string, string];
  const [statusLine, ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

describe("requests Node's HTTP parser refuses", () => {
  it.each([
    ['a malformed header line', 'GET /api/v1/me HTTP/1.1\r\nHost: x\r\nthis is not a header\r\n\r\n', 400, 'invalid_request'],
    ['a broken request line', 'GARBAGE\r\n\r\n', 400, 'invalid_request'],
    ['headers over 16 KB', `GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
  ])('%s: answered in the Error shape', async (_, request, status, code) => {
    const { status: got, headers, body } = parse(await raw(request));
    expect(got).toBe(status);
    expect(headers['content-type']).toMatch(/^application\/json/);
    expect(headers.connection).toBe('close');
    const { error } = ErrorSchema.parse(JSON.parse(body));
    expect(error.code).toBe(code);
  });
});
