import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorCodeForStatus } from '../../contract/errors.js';
import { errorBody } from '../core/errors.js';

const MESSAGES: Record<number, string> = {
  400: 'The request could not be parsed as HTTP',
  408: 'The request was not received in time',
  431: 'The request headers are larger than 16 KB',
};

/** The response a connection is still sending, as Node keeps it on the socket, with its request. */
interface InFlightResponse {
  headersSent: boolean;
  writableFinished: boolean;
  req?: { complete: boolean };
  once(event: 'finish', listener: () => void): unknown;
}

/**
 * Node answers requests its HTTP parser refuses (malformed, headers over 16 KB, too slow) before
 * the app sees them, with an empty body. This gives those answers the Error shape too.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, publicUrl: string): void {
  const inFlight = (socket as Duplex & { _httpMessage?: InFlightResponse | null })._httpMessage;
  // A keep-alive client can send its next request (pipelined, or as soon as it has the last byte
  // of a download) before the answer to the one before, whose request was read whole, has finished
  // going out. Answers go in order: this one waits for that answer instead of cutting it off.
  if (err.code !== 'ECONNRESET' && inFlight?.req?.complete && !inFlight.writableFinished) {
    inFlight.once('finish', () => answerClientError(err, socket, publicUrl));
    return;
  }
  // An error in the request being answered (its body cut short): nothing more can be said once its answer has begun.
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
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
