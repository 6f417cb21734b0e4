import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * Waits until `stream` has room again (it asked for a 'drain'), or rejects when the export is
 * stopped: this is how a slow reader slows the database cursor down instead of filling memory.
 */
export async function roomIn(stream: Writable, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  if (stream.writableNeedDrain) await once(stream, 'drain', { signal });
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
      const stop = () => reject(signal.reason);
      signal.addEventListener('abort', stop, { once: true });
      wake = () => {
        signal.removeEventListener('abort', stop);
        resolve();
      };
    });
  };
}
