/**
 * A bounded log of a stdio child's stderr (S6): the last `maxLines` lines, each cut to
 * `maxLineLength` characters, so a chatty or hostile child cannot grow our memory.
 * @module
 */
import type { StderrLog } from './types.js';

/** A {@link StderrLog} that is fed text chunks as they arrive. */
export type StderrSink = StderrLog & {
  /** Appends a chunk; lines are split on `\n` (a trailing `\r` is dropped). */
  write(chunk: string): void;
  /** The last line, or '' when there is none. */
  last(): string;
  /**
   * What the current process wrote last (since the last mark, never our own lines): its last
   * non-blank `lines` joined with ` | `, cut to the last `chars` characters; '' when none.
   */
  tail(options?: { lines?: number; chars?: number }): string;
  /** Ends a partial last line and adds `line`: marks where the next process's output starts. */
  mark(line: string): void;
  /** Marks the start of process `pid` (`[boternity] started pid N`) and keeps its pid. */
  started(pid: number): void;
  /** The pid of the last process {@link started}, or null. */
  startedPid(): number | null;
};

/** Options of {@link createStderrLog}. */
export type StderrLogOptions = { readonly maxLineLength?: number };

const TRUNCATED = ' …[truncated]';

/** Create a ring of at most `maxLines` lines; a partial last line is shown but not yet counted. */
export function createStderrLog(maxLines: number, { maxLineLength = 4_096 }: StderrLogOptions = {}): StderrSink {
  const ring: string[] = [];
  let partial = '';
  let partialCut = false;
  // Lines pushed since the last mark: the current process's own.
  let own = 0;

  const push = (line: string, cut: boolean) => {
    if (maxLines <= 0) return;
    const clean = line.endsWith('\r') ? line.slice(0, -1) : line;
    ring.push(cut ? clean + TRUNCATED : clean);
    own++;
    if (ring.length > maxLines) ring.splice(0, ring.length - maxLines);
  };
  const append = (text: string) => {
    if (partialCut) return;
    const room = maxLineLength - partial.length;
    if (text.length > room) {
      partial += text.slice(0, room);
      partialCut = true;
    } else {
      partial += text;
    }
  };

  const lines = (): string[] => {
    if (maxLines <= 0) return [];
    if (partial === '' && !partialCut) return [...ring];
    return [...ring, partialCut ? partial + TRUNCATED : partial].slice(-maxLines);
  };

  let startedPid: number | null = null;
  const mark = (line: string) => {
    if (partial !== '' || partialCut) push(partial, partialCut);
    partial = '';
    partialCut = false;
    push(line, false);
    own = 0;
  };
  return {
    lines,
    last: () => lines().at(-1) ?? '',
    tail({ lines: count = 3, chars = 1_000 } = {}) {
      const mine = ring.slice(ring.length - Math.min(own, ring.length));
      if (partial !== '' || partialCut) mine.push(partialCut ? partial + TRUNCATED : partial);
      const text = mine
        .filter((line) => line.trim() !== '')
        .slice(-count)
        .join(' | ');
      return text.length > chars ? `…${text.slice(text.length - chars)}` : text;
    },
    mark,
    started(pid) {
      mark(`[boternity] started pid ${pid}`);
      startedPid = pid;
    },
    startedPid: () => startedPid,
    write(chunk) {
      let start = 0;
      for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
        append(chunk.slice(start, nl));
        push(partial, partialCut);
        partial = '';
        partialCut = false;
        start = nl + 1;
      }
      append(chunk.slice(start));
    },
  };
}
