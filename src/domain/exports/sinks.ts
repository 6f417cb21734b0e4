import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { AppError } from '../../errors.js';

/**
 * How long an export waits for its reader to take anything. A reader that stops reading without
 * disconnecting would otherwise hold an export slot and a database connection for good.
 */
export const EXPORT_STALL_MS = 60_000;

const stalled = () => new AppError('request_timeout', `The export's reader took nothing for ${EXPORT_STALL_MS / 1000} s; the export was stopped.`);

/**
 * Waits until `stream` has room again (it asked for a 'drain'), or rejects when the export is
 * stopped or stalls: this is how a slow reader slows the database cursor down instead of filling memory.
 */
export async function roomIn(stream: Writable, signal: AbortSignal, full = stream.writableNeedDrain): Promise<void> {
  signal.throwIfAborted();
  if (!full) return;
  const timeout = AbortSignal.timeout(EXPORT_STALL_MS);
  await once(stream, 'drain', { signal: AbortSignal.any([signal, timeout]) }).catch((err: unknown) => {
    throw timeout.aborted && !signal.aborted ? stalled() : err;
  });
}

/**
 * Writes into a response, waiting for room whenever it says it is full. One 'drain' listener
 * serves every wait: the compression middleware (src/http/compress.ts) moves a response's 'drain'
 * listeners onto its gzip stream and cannot take them off again, so a listener per wait would pile up.
 */
export function writerWithRoom(stream: Writable, signal: AbortSignal) {
  let wake: (() => void) | null = null;
  stream.on('drain', () => {
    const resume = wake;
    wake = null;
    resume?.();
  });
  return async (chunk: string): Promise<void> => {
    signal.throwIfAborted();
    if (stream.write(chunk)) return;
    await new Promise<void>((resolve, reject) => {
      const stop = (err: unknown) => {
        wake = null;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        reject(err);
      };
      const onAbort = () => stop(signal.reason);
      const timer = setTimeout(() => stop(stalled()), EXPORT_STALL_MS);
      signal.addEventListener('abort', onAbort, { once: true });
      wake = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
    });
  };
}
