import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, errorBody } from '../errors.js';

/**
 * Requests Node refuses before Express sees them (headers over 16 KiB, malformed HTTP, a request
 * too slow to arrive) are answered here with the same JSON envelope as every other error,
 * instead of Node's bare status line.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const appError =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('headers_too_large')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('request_timeout')
        : new AppError('invalid_request', 'The request is not valid HTTP.');
  const body = JSON.stringify(errorBody(appError));
  socket.end(
    [
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status] ?? ''}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Access-Control-Allow-Origin: *',
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
