/**
 * Newline-delimited framing of a child's stdout (the stdio transport of MCP), as the SDK's
 * `ReadBuffer` does it, without copying: a chunk that holds whole lines is read in place,
 * and only a line cut between chunks is joined (ADR 015 §10). Same limit, same error.
 * @module
 */
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';

const NEWLINE = 0x0a;

/** Splits chunks into lines (`\r\n` or `\n`); holds at most `maxBytes` of an unfinished line. */
export class LineSplitter {
  readonly #maxBytes: number;
  #held: Buffer[] = [];
  #heldBytes = 0;

  constructor(maxBytes = STDIO_DEFAULT_MAX_BUFFER_SIZE) {
    this.#maxBytes = maxBytes;
  }

  /** Hand each line completed by `chunk` to `onLine`; throws (and forgets all) past the limit. */
  push(chunk: Buffer, onLine: (line: string) => void): void {
    if (this.#heldBytes + chunk.length > this.#maxBytes) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.#maxBytes} bytes`);
    }
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      let line: string;
      if (this.#heldBytes > 0) {
        this.#held.push(chunk.subarray(0, end));
        line = Buffer.concat(this.#held, this.#heldBytes + end).toString('utf8');
        this.clear();
      } else {
        line = chunk.toString('utf8', start, end);
      }
      start = end + 1;
      onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    if (start < chunk.length) {
      this.#held.push(start === 0 ? chunk : chunk.subarray(start));
      this.#heldBytes += chunk.length - start;
    }
  }

  /** Forget any unfinished line. */
  clear(): void {
    this.#held = [];
    this.#heldBytes = 0;
  }
}
