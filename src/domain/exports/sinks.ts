import type { Writable } from 'node:stream';
import { AppError } from '../../errors.js';

/**
 * How long an export waits for its reader to take anything. A reader that stops reading without
 * disconnecting would otherwise hold an export slot and a database connection for good.
 */
export const EXPORT_STALL_MS = 60_000;

const stalled = () => new AppError('request_timeout', `The export's reader took nothing for ${EXPORT_STALL_MS / 1000} s; the export was stopped.`);

/**
 * One wait for room: resolves when `listen` calls its `wake`, rejects when `listen` calls its
 * `fail`, the export is stopped (`signal`) or nothing came for `EXPORT_STALL_MS`. Everything the wait
 * sets up is taken down when it ends (`listen` returns how to stop listening): an
 * `AbortSignal.timeout` per wait (its timer queued for the whole minute) and an `AbortSignal.any`
 * over the export's signal made each of a 100,000-row export's thousand waits outlive the young
 * generation, ~3 MB of garbage promoted per export (docs/BENCHMARKS.md "Under 150 MB").
 */
function untilRoom(signal: AbortSignal, listen: (wake: () => void, fail: (err: unknown) => void) => () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const end = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      unlisten();
    };
    const wake = () => {
      end();
      resolve();
    };
    const fail = (err: unknown) => {
      end();
      reject(err);
    };
    const onAbort = () => fail(signal.reason);
    const timer = setTimeout(() => fail(stalled()), EXPORT_STALL_MS);
    signal.addEventListener('abort', onAbort, { once: true });
    const unlisten = listen(wake, fail);
  });
}

/**
 * Waits until `stream` has room again (it asked for a 'drain'), or rejects when the export is
 * stopped or stalls: this is how a slow reader slows the database cursor down instead of filling memory.
 */
export async function roomIn(stream: Writable, signal: AbortSignal, full = stream.writableNeedDrain): Promise<void> {
  signal.throwIfAborted();
  if (!full) return;
  await untilRoom(signal, (wake, fail) => {
    const onError = (err: Error) => fail(err);
    const onClose = () => fail(new Error('export stopped: the stream closed while the export waited for room'));
    stream.on('drain', wake);
    stream.on('error', onError);
    stream.on('close', onClose);
    return () => {
      stream.off('drain', wake);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
  });
}

/**
 * Writes into a response, waiting for room whenever it says it is full. One 'drain' listener
 * serves every wait: the compression middleware (src/http/compress.ts) moves a response's 'drain'
 * listeners onto its gzip stream and cannot take them off again, so a listener per wait would pile up.
 */
export function writerWithRoom(stream: Writable, signal: AbortSignal) {
  let wake: (() => void) | null = null;
  stream.on('drain', () => wake?.());
  return async (chunk: string): Promise<void> => {
    signal.throwIfAborted();
    if (stream.write(chunk)) return;
    await untilRoom(signal, (resume) => {
      wake = resume;
      return () => {
        wake = null;
      };
    });
  };
}
