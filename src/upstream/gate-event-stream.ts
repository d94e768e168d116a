/**
 * The notification rate limit on a remote upstream's event streams (issue 17), before the
 * SDK decodes and parses them: each event of a `text/event-stream` body whose `data:` is a
 * notification (told by {@link peekNotificationMethod}, unparsed) is let through or dropped
 * by the gate; the bytes of what passes are not touched. Events it cannot tell this way
 * pass as they are (the transport's own gate sees them once parsed). The body is not read
 * any slower while it drops: fetch then buffers what the server sends, at a higher cost
 * than reading it (ADR 018).
 * @module
 */
import { peekNotificationMethod } from './peek-method.js';

const LF = 0x0a;
const CR = 0x0d;
/** How much of an event is looked at for its first `data:` line. */
const LOOK_BYTES = 1_024;
/** An event longer than this without its end is let through unread (its end still ends it). */
const MAX_HELD_BYTES = 1024 * 1024;
const DATA_LINE = /(?:^|\n)data: ?([^\r\n]*)/;

/** `body` without the events the gate refuses. */
export function gateEventStream(
  body: ReadableStream<Uint8Array>,
  admit: (method: string) => boolean,
): ReadableStream<Uint8Array> {
  // The current event's bytes from earlier chunks.
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  // The current line's length in earlier chunks, and the last byte read: an empty line
  // (nothing, or a lone CR, before its LF) ends an event.
  let lineSoFar = 0;
  let lastByte = -1;
  // An event too long to hold: let through as it comes, until its end.
  let passing = false;

  const decide = (event: Uint8Array[]): boolean => {
    const look = Buffer.concat(event).subarray(0, LOOK_BYTES).toString('utf8');
    const data = DATA_LINE.exec(look)?.[1];
    const method = data === undefined ? null : peekNotificationMethod(data);
    return method === null || admit(method);
  };

  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const out: Uint8Array[] = [];
        let eventFrom = 0;
        let lineFrom = 0;
        for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, lf + 1)) {
          const length = (lineFrom === 0 ? lineSoFar : 0) + lf - lineFrom;
          const before = lf > 0 ? chunk[lf - 1] : lastByte;
          lineFrom = lf + 1;
          if (length > 1 || (length === 1 && before !== CR)) continue;
          const tail = chunk.subarray(eventFrom, lf + 1);
          if (passing) out.push(tail);
          else if (decide([...held, tail])) out.push(...held, tail);
          held = [];
          heldBytes = 0;
          passing = false;
          eventFrom = lf + 1;
        }
        lineSoFar = (lineFrom === 0 ? lineSoFar : 0) + chunk.length - lineFrom;
        lastByte = chunk.length > 0 ? (chunk[chunk.length - 1] ?? lastByte) : lastByte;
        const rest = chunk.subarray(eventFrom);
        if (passing) out.push(rest);
        else if (rest.length > 0) {
          held.push(rest);
          heldBytes += rest.length;
          if (heldBytes > MAX_HELD_BYTES) {
            out.push(...held);
            held = [];
            heldBytes = 0;
            passing = true;
          }
        }
        if (out.length > 0) controller.enqueue(out.length === 1 ? (out[0] as Uint8Array) : Buffer.concat(out));
      },
      flush(controller) {
        if (held.length > 0) controller.enqueue(Buffer.concat(held));
      },
    }),
  );
}
