import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorCodeForStatus } from '../../contract/errors.js';
import { errorBody } from '../core/errors.js';

const MESSAGES: Record<number, string> = {
  400: 'The request could not be parsed as HTTP',
  408: 'The request was not received in time',
  431: 'The request headers are larger than 16 KB',
};

/**
 * Node answers requests its HTTP parser refuses (malformed, headers over 16 KB, too slow) before
 * the app sees them, with an empty body. This gives those answers the Error shape too.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, publicUrl: string): void {
  const responding = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (err.code === 'ECONNRESET' || !socket.writable || responding) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify(errorBody(publicUrl, errorCodeForStatus(status), MESSAGES[status]!));
  socket.end(
    [
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
      'Content-Type: application/json; charset=UTF-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'X-Content-Type-Options: nosniff',
      'Cache-Control: no-store',
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
