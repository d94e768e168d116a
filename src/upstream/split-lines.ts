/**
 * Newline-delimited framing of a child's stdout (the stdio transport of MCP), as the SDK's
 * `ReadBuffer` does it, without copying: a chunk that holds whole lines is read in place,
 * and only a line cut between chunks is joined (ADR 015 §10). Same limit, same error. A
 * long line of ASCII without a backslash is handed on with its long strings taken out
 * (ADR 049).
 * @module
 */
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { isJsonPlainBytes } from '../guard/is-plain-ascii.js';
import { type CutLine, cutLongStrings, LONG_STRING_CHARS } from './long-strings.js';

const NEWLINE = 0x0a;

/** A long line of ASCII without a backslash, cut; null for any other. */
const cut = (pieces: readonly Buffer[]): CutLine | null =>
  pieces.every((piece) => isJsonPlainBytes(piece)) ? cutLongStrings(pieces) : null;

/** A cut line without the `\r` of a `\r\n` ending (JSON's whitespace, but not the line's). */
function cutWithoutReturn(line: CutLine): CutLine {
  return line.text.endsWith('\r') ? { text: line.text.slice(0, -1), long: line.long } : line;
}

/** Splits chunks into lines (`\r\n` or `\n`); no line, finished or not, may pass `maxBytes`. */
export class LineSplitter {
  readonly #maxBytes: number;
  readonly #tooLong: () => Error;
  #held: Buffer[] = [];
  #heldBytes = 0;

  /** `tooLong` makes the error thrown past the limit (by default the SDK's `ReadBuffer` one). */
  constructor(maxBytes = STDIO_DEFAULT_MAX_BUFFER_SIZE, tooLong?: () => Error) {
    this.#maxBytes = maxBytes;
    this.#tooLong = tooLong ?? (() => new Error(`ReadBuffer exceeded maximum size of ${maxBytes} bytes`));
  }

  /**
   * Hand each line completed by `chunk` to `onLine`: as text, or cut (`long-strings.ts`) when
   * it is made of ASCII without a backslash and holds long strings. Throws (and forgets all)
   * past the limit. `chunk` may be reused once this returns: nothing of it is kept uncopied.
   */
  push(chunk: Buffer, onLine: (line: string | CutLine) => void): void {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      if (this.#heldBytes + end - start > this.#maxBytes) this.#refuse();
      let line: string | CutLine;
      if (this.#heldBytes > 0) {
        this.#held.push(chunk.subarray(0, end));
        line = (this.#heldBytes + end > LONG_STRING_CHARS && cut(this.#held)) || this.#joined(end);
        this.clear();
      } else {
        line =
          (end - start > LONG_STRING_CHARS && cut([chunk.subarray(start, end)])) || chunk.toString('utf8', start, end);
      }
      start = end + 1;
      if (typeof line !== 'string') onLine(cutWithoutReturn(line));
      else onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    if (this.#heldBytes + chunk.length - start > this.#maxBytes) this.#refuse();
    if (start < chunk.length) {
      // A chunk is lent for this call (one buffer every read lands in): what waits is copied.
      this.#held.push(Buffer.from(chunk.subarray(start)));
      this.#heldBytes += chunk.length - start;
    }
  }

  /**
   * The held pieces as one text. Pieces that each end on an ASCII byte end on a character's
   * end: each is decoded where it lies and the texts joined (JSON.parse reads the joined text
   * once), without a copy of a 64 KiB answer into a new buffer first (issue 20); a piece that
   * ends inside a character is joined as bytes.
   */
  #joined(end: number): string {
    const held = this.#held;
    for (let i = 0; i < held.length - 1; i++) {
      const piece = held[i] as Buffer;
      if ((piece[piece.length - 1] as number) >= 0x80)
        return Buffer.concat(held, this.#heldBytes + end).toString('utf8');
    }
    let text = '';
    for (const piece of held) text += piece.toString('utf8');
    return text;
  }

  #refuse(): never {
    this.clear();
    throw this.#tooLong();
  }

  /** Forget any unfinished line. */
  clear(): void {
    this.#held = [];
    this.#heldBytes = 0;
  }
}
