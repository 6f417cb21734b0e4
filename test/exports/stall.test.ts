import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXPORT_STALL_MS, roomIn, writerWithRoom } from '../../src/domain/exports/sinks.js';

/**
 * A reader that stops reading without disconnecting: the export waits for room at most
 * EXPORT_STALL_MS, then stops with `request_timeout` and leaves nothing behind (no timer, no
 * listener). Fake timers stand in for the minute; the stream is a real one, filled past its
 * highWaterMark so that it really asks for a 'drain'.
 */
function fullStream(): PassThrough {
  const stream = new PassThrough({ highWaterMark: 16 });
  expect(stream.write('x'.repeat(64))).toBe(false);
  return stream;
}

const listeners = (s: PassThrough) => ['drain', 'error', 'close'].map((e) => s.listenerCount(e));

afterEach(() => {
  vi.useRealTimers();
});

describe('an export whose reader takes nothing', () => {
  it('roomIn stops with request_timeout after EXPORT_STALL_MS, not before, and removes what it set up', async () => {
    vi.useFakeTimers();
    const stream = fullStream();
    const before = listeners(stream);
    const wait = roomIn(stream, new AbortController().signal);
    const outcome = wait.then(
      () => 'resolved',
      (err: { code?: string }) => err.code,
    );
    await vi.advanceTimersByTimeAsync(EXPORT_STALL_MS - 1);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe('request_timeout');
    expect(vi.getTimerCount()).toBe(0);
    expect(listeners(stream)).toEqual(before);
  });

  it('writerWithRoom stops with request_timeout when the reader stalls, and its timer is gone', async () => {
    vi.useFakeTimers();
    const stream = new PassThrough({ highWaterMark: 16 });
    const write = writerWithRoom(stream, new AbortController().signal);
    const outcome = write('x'.repeat(64)).then(
      () => 'resolved',
      (err: { code?: string }) => err.code,
    );
    await vi.advanceTimersByTimeAsync(EXPORT_STALL_MS);
    expect(await outcome).toBe('request_timeout');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a reader that takes something in time resumes the export and clears the stall timer', async () => {
    vi.useFakeTimers();
    const stream = fullStream();
    const before = listeners(stream);
    const wait = roomIn(stream, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(EXPORT_STALL_MS - 1000);
    stream.resume(); // the reader reads: the stream empties and emits 'drain'
    await vi.advanceTimersByTimeAsync(0);
    await expect(wait).resolves.toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    expect(listeners(stream)).toEqual(before);
  });

  it('an export stopped while it waits rejects with the stop reason at once and clears the timer', async () => {
    vi.useFakeTimers();
    const stream = fullStream();
    const stop = new AbortController();
    const wait = roomIn(stream, stop.signal);
    const reason = new Error('reader left');
    stop.abort(reason);
    await expect(wait).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });
});
