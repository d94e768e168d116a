/**
 * A real pino logger whose lines are kept, parsed, for tests that check what is logged and
 * at which level.
 * @module
 */
import { type Level, type Logger, pino } from 'pino';

/** A logged line, parsed. */
export type LogLine = Record<string, unknown> & { level: number; msg: string };

/** A logger at `level` (default debug) and the lines it wrote, in order. */
export function captureLog(level: Level = 'debug'): { log: Logger; lines: LogLine[]; text: () => string } {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const log = pino(
    { level },
    {
      write(line: string) {
        raw.push(line);
        lines.push(JSON.parse(line) as LogLine);
      },
    },
  );
  return { log, lines, text: () => raw.join('') };
}

/** pino's numeric levels, by name. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const;
