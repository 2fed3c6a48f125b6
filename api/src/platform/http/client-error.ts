import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { defaultMessage } from './error-body';

/** How long the rest of a refused request may take to arrive before the socket is dropped. */
const DRAIN_MS = 5_000;

function statusOf(error: NodeJS.ErrnoException): number {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 431;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

const MESSAGES: Record<number, string> = {
  431: 'The request line and headers are too large (at most 16 KB): shorten the query.',
  408: 'The request took too long to arrive.',
};

/**
 * Requests Node's HTTP parser refuses before the api sees them (a query string past 16 KB,
 * a malformed request line) are answered in the spec's error body, like every other error.
 * Node's own answer is an empty 431 followed by a reset, and a client still sending its long
 * URL sees only the reset: the rest of the request is read and dropped instead, for a while.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = statusOf(error);
    const body = JSON.stringify({ message: MESSAGES[status] ?? defaultMessage(status) });
    socket.on('data', () => undefined).on('error', () => socket.destroy());
    socket.resume();
    setTimeout(() => socket.destroy(), DRAIN_MS).unref();
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
