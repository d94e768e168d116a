/**
 * Reading a stdio child's stderr (S6): always drained (a child whose pipe fills stalls), but
 * under a flood at most `bytesPerSecond`: past that in a second the pipe rests for the rest
 * of it, so a child writing megabytes of newlines waits on its own pipe instead of costing
 * our event loop a read and a decode per 64 KiB as fast as it can write (as stdout is held
 * back while its notifications are dropped, issue 17). Nothing is dropped: it comes later.
 * @module
 */
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { StderrSink } from './stderr-log.js';

/** What a child's stderr is read at, at most; far above any server's own logging. */
export const STDERR_BYTES_PER_SECOND = 1024 * 1024;

/** Feed `sink` with `stream`'s text (multi-byte characters split across chunks kept whole), at most `bytesPerSecond`. */
export function readStderr(
  stream: Readable,
  sink: Pick<StderrSink, 'write'>,
  bytesPerSecond = STDERR_BYTES_PER_SECOND,
): void {
  const decoder = new StringDecoder('utf8');
  let windowStart = performance.now();
  let windowBytes = 0;
  let resting = false;
  stream.on('data', (chunk: Buffer) => {
    sink.write(decoder.write(chunk));
    const now = performance.now();
    if (now - windowStart >= 1_000) {
      windowStart = now;
      windowBytes = 0;
    }
    windowBytes += chunk.length;
    if (windowBytes < bytesPerSecond || resting) return;
    resting = true;
    stream.pause();
    setTimeout(
      () => {
        resting = false;
        windowStart = performance.now();
        windowBytes = 0;
        stream.resume();
      },
      Math.max(1, 1_000 - (now - windowStart)),
    );
  });
}
