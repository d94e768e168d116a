/**
 * A bounded log of a stdio child's stderr (S6): the last `maxLines` lines, each cut to
 * `maxLineLength` characters, so a chatty or hostile child cannot grow our memory. The
 * lines sit in a circular buffer, and of a chunk only the lines that can survive it are
 * looked at (found from its end): a megabyte of newlines costs as much as `maxLines` lines,
 * not a shift of the whole buffer per line (a flood once held the event loop for 0.4 s per MiB).
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
  const size = Math.max(0, maxLines);
  const ring = new Array<string>(size);
  let head = 0; // the oldest line's slot
  let count = 0;
  let partial = '';
  let partialCut = false;
  // Lines pushed since the last mark (the current process's own), counted up to `size`.
  let own = 0;

  const push = (line: string, cut: boolean) => {
    if (size === 0) return;
    const clean = line.endsWith('\r') ? line.slice(0, -1) : line;
    const slot = (head + count) % size;
    ring[slot] = cut ? clean + TRUNCATED : clean;
    if (count < size) count++;
    else head = (head + 1) % size;
    if (own < size) own++;
  };
  /** A whole line of a chunk, cut to `maxLineLength`. */
  const pushWhole = (text: string, from: number, to: number) => {
    const cut = to - from > maxLineLength;
    push(text.slice(from, cut ? from + maxLineLength : to), cut);
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
  const endPartial = () => {
    push(partial, partialCut);
    partial = '';
    partialCut = false;
  };
  /** The newest `n` lines of the ring, oldest first. */
  const newest = (n: number): string[] => {
    const out: string[] = [];
    for (let i = count - Math.min(n, count); i < count; i++) out.push(ring[(head + i) % size] as string);
    return out;
  };

  const lines = (): string[] => {
    if (size === 0) return [];
    if (partial === '' && !partialCut) return newest(count);
    return [...newest(count), partialCut ? partial + TRUNCATED : partial].slice(-size);
  };

  let startedPid: number | null = null;
  const mark = (line: string) => {
    if (partial !== '' || partialCut) endPartial();
    push(line, false);
    own = 0;
  };
  return {
    lines,
    last: () => lines().at(-1) ?? '',
    tail({ lines: lineCount = 3, chars = 1_000 } = {}) {
      const mine = newest(own);
      if (partial !== '' || partialCut) mine.push(partialCut ? partial + TRUNCATED : partial);
      const text = mine
        .filter((line) => line.trim() !== '')
        .slice(-lineCount)
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
      const lastNl = chunk.lastIndexOf('\n');
      if (lastNl === -1) return append(chunk);
      const firstNl = chunk.indexOf('\n');
      append(chunk.slice(0, firstNl));
      endPartial();
      // The whole lines after the first: only the last `size` of them can stay, so the
      // search for their start goes backwards from the end and stops there.
      let start = lastNl;
      for (let kept = 0; kept < size && start > firstNl; kept++) start = chunk.lastIndexOf('\n', start - 1);
      if (start > firstNl) own = size; // lines were passed over: the process wrote at least a ring's worth
      for (let from = start + 1; from <= lastNl; ) {
        const nl = chunk.indexOf('\n', from);
        pushWhole(chunk, from, nl);
        from = nl + 1;
      }
      append(chunk.slice(lastNl + 1));
    },
  };
}
