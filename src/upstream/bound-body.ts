/**
 * Counting an upstream's HTTP response body as it streams (SPEC X8): a JSON body is bounded
 * as a whole, an event stream event by event (a long-lived stream may carry any number of
 * messages, each bounded). Past the bound the body is cancelled and errors; nothing more of
 * it is read. How it ended is told once, for the call whose answer it carried.
 * @module
 */

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const ID_FIELD = [0x69, 0x64, 0x3a]; // "id:"

/** Options of {@link boundBody}. */
export type BoundBodyOptions = {
  readonly maxBytes: number;
  /** An event stream: each event is bounded, not the whole body. */
  readonly events: boolean;
  /** The error the body fails with past the bound (the caller also aborts the request with it). */
  readonly tooLarge: () => Error;
  /**
   * Told once when the body ended by itself: `error` null at its end, else why it failed;
   * `resumable` when an event stream carried an event id (the SDK may resume it). Not told
   * when the reader cancels it.
   */
  readonly onEnd: (error: Error | null, resumable: boolean) => void;
  /** Called once when the body is done with, however (ended, failed or cancelled). */
  readonly onDone: () => void;
};

/** The bytes a body may still hold, counted whole or per event. */
type Counter = { add(chunk: Uint8Array): boolean; readonly resumable: boolean };

/** A body that reads `source` on demand, counting as it goes. */
export function boundBody(
  source: ReadableStream<Uint8Array>,
  { maxBytes, events, tooLarge, onEnd, onDone }: BoundBodyOptions,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const counter = events ? countEvents(maxBytes) : countWhole(maxBytes);
  let done = false;
  const end = (error: Error | null) => {
    if (done) return;
    done = true;
    onDone();
    onEnd(error, counter.resumable);
  };
  // An event stream is passed on whole lines at a time: a long line (a big message) cut
  // into many chunks would make the SDK's SSE parser join them again at every chunk.
  const lines = events ? new PartialLine() : null;
  const fail = (controller: ReadableStreamDefaultController<Uint8Array>, failure: Error) => {
    end(failure);
    lines?.clear();
    controller.error(failure);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Until there is something to hand on: a pull that enqueues nothing is not called again.
        for (;;) {
          let next: Awaited<ReturnType<typeof reader.read>>;
          try {
            next = await reader.read();
          } catch (error) {
            fail(controller, error instanceof Error ? error : new Error(String(error)));
            return;
          }
          if (next.done) {
            const rest = lines?.flush();
            if (rest) controller.enqueue(rest);
            end(null);
            controller.close();
            return;
          }
          if (!counter.add(next.value)) {
            const failure = tooLarge();
            fail(controller, failure);
            reader.cancel(failure).catch(() => undefined);
            return;
          }
          const ready = lines ? lines.push(next.value) : next.value;
          if (ready) {
            controller.enqueue(ready);
            return;
          }
        }
      },
      cancel(reason) {
        if (!done) {
          done = true;
          onDone();
        }
        lines?.clear();
        return reader.cancel(reason);
      },
    },
    // Pulled only when the reader asks: nothing is read ahead of the SDK.
    { highWaterMark: 0 },
  );
}

/** Bytes held back until their line ends (CR or LF), so that lines go on whole. */
class PartialLine {
  #held: Uint8Array[] = [];
  #bytes = 0;

  /** What of `chunk` (with what was held) ends with a line end; null when nothing does yet. */
  push(chunk: Uint8Array): Uint8Array | null {
    const end = Math.max(chunk.lastIndexOf(LF), chunk.lastIndexOf(CR)) + 1;
    if (end === 0) {
      this.#hold(chunk);
      return null;
    }
    const complete = end === chunk.length ? chunk : chunk.subarray(0, end);
    const out = this.#bytes === 0 ? complete : Buffer.concat([...this.#held, complete]);
    this.clear();
    if (end < chunk.length) this.#hold(chunk.subarray(end));
    return out;
  }

  /** What is held, at the end of the stream. */
  flush(): Uint8Array | null {
    const out = this.#bytes === 0 ? null : Buffer.concat(this.#held);
    this.clear();
    return out;
  }

  clear(): void {
    this.#held = [];
    this.#bytes = 0;
  }

  #hold(part: Uint8Array): void {
    this.#held.push(part);
    this.#bytes += part.length;
  }
}

function countWhole(maxBytes: number): Counter {
  let total = 0;
  return {
    resumable: false,
    add(chunk) {
      total += chunk.length;
      return total <= maxBytes;
    },
  };
}

/**
 * Bytes of the current event of a `text/event-stream`: an empty line (CRLF, LF or CR
 * endings) ends an event and starts the count again. Also notes an `id:` field with a value.
 */
function countEvents(maxBytes: number): Counter {
  let eventBytes = 0;
  let lineBytes = 0;
  let afterCr = false;
  // While the line so far reads "id:", and whether a value followed it.
  let idPrefix = true;
  let resumable = false;
  // The bytes of a line up to its end: the line ends are found natively (a message of
  // megabytes is one line), and only the first bytes of each line are looked at one by one.
  const content = (chunk: Uint8Array, from: number, to: number): void => {
    for (let i = from; i < to && idPrefix && !resumable; i++) {
      const at = lineBytes + i - from;
      if (at < ID_FIELD.length) idPrefix = chunk[i] === ID_FIELD[at];
      else if (chunk[i] !== SPACE) resumable = true;
    }
    lineBytes += to - from;
    eventBytes += to - from;
  };
  return {
    get resumable() {
      return resumable;
    },
    add(chunk) {
      // The next LF and CR at or after `i`; -1 when there is none in the chunk.
      let lf = chunk.indexOf(LF);
      let cr = chunk.indexOf(CR);
      let i = 0;
      while (i < chunk.length) {
        if (lf !== -1 && lf < i) lf = chunk.indexOf(LF, i);
        if (cr !== -1 && cr < i) cr = chunk.indexOf(CR, i);
        const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
        const to = end === -1 ? chunk.length : end;
        if (to > i) {
          afterCr = false;
          content(chunk, i, to);
          if (eventBytes > maxBytes) return false;
        }
        if (end === -1) break;
        const byte = chunk[end];
        i = end + 1;
        const secondHalfOfCrLf = byte === LF && afterCr;
        afterCr = byte === CR;
        if (secondHalfOfCrLf) continue;
        if (lineBytes === 0) eventBytes = 0;
        lineBytes = 0;
        idPrefix = true;
      }
      return true;
    },
  };
}
