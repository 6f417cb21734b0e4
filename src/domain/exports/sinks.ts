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
 * Everything a wait sets up is taken down when it ends: an `AbortSignal.timeout` per wait (whose
 * timer stays queued for the whole minute) and an `AbortSignal.any` over the export's signal made
 * each of a 100,000-row export's thousand waits outlive the young generation, ~3 MB of garbage
 * promoted to the old one per export (docs/BENCHMARKS.md "export").
 */
export async function roomIn(stream: Writable, signal: AbortSignal, full = stream.writableNeedDrain): Promise<void> {
  signal.throwIfAborted();
  if (!full) return;
  await new Promise<void>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      stream.off('drain', onDrain);
      stream.off('error', onError);
      stream.off('close', onClose);
      signal.removeEventListener('abort', onAbort);
    };
    const onDrain = () => {
      done();
      resolve();
    };
    const fail = (err: unknown) => {
      done();
      reject(err);
    };
    const onError = (err: Error) => fail(err);
    const onClose = () => fail(new Error('export stopped: the stream closed while the export waited for room'));
    const onAbort = () => fail(signal.reason);
    const timer = setTimeout(() => fail(stalled()), EXPORT_STALL_MS);
    stream.on('drain', onDrain);
    stream.on('error', onError);
    stream.on('close', onClose);
    signal.addEventListener('abort', onAbort, { once: true });
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
