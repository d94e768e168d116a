/**
 * pino with redaction of credentials (SPEC S8, C6). One root logger, created by main.ts;
 * everything else takes a child.
 * @module
 */
import { createRequire } from 'node:module';
import { type Logger, type LoggerOptions, pino } from 'pino';
import type { PrettyOptions, PrettyStream } from 'pino-pretty';

/** Paths pino censors wherever they appear in a log object. */
export const REDACT_PATHS = [
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'headers.Authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
  '*.env',
  'env',
];

/** Options of {@link createLogger}. */
export type CreateLoggerOptions = {
  level?: string;
  /** Write to stderr: required when stdout carries MCP over stdio. */
  toStderr?: boolean;
  /** Pretty output for people; default: when the destination is a TTY outside CI. */
  pretty?: boolean;
  /**
   * Secret values (keystore credentials in use) masked wherever they appear in a line, e.g.
   * an upstream that echoes its Authorization header into an error body (C6).
   */
  secrets?: ReadonlySet<string>;
};

/** Replace every known secret in a serialized log line. */
export function maskSecrets(line: string, secrets: ReadonlySet<string>): string {
  let out = line;
  for (const secret of secrets)
    if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join('[redacted]');
  return out;
}

/** Create the root logger. */
export function createLogger({
  level = process.env.BOTERNITY_LOG_LEVEL ?? 'info',
  toStderr = false,
  pretty = (toStderr ? process.stderr.isTTY : process.stdout.isTTY) && !process.env.CI,
  secrets,
}: CreateLoggerOptions = {}): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'boternity' },
    redact: REDACT_PATHS,
    ...(secrets ? { hooks: { streamWrite: (line: string) => maskSecrets(line, secrets) } } : {}),
  };
  if (pretty) {
    // For people at a terminal: formatted on this thread, written synchronously like the JSON
    // lines (a transport would start a worker from pino's own files, which the bundle has not).
    // pino-pretty is loaded only here: a service under a supervisor never needs it.
    const prettyStream = createRequire(import.meta.url)('pino-pretty') as (options: PrettyOptions) => PrettyStream;
    return pino(
      options,
      prettyStream({
        colorize: true,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname,service',
        destination: toStderr ? 2 : 1,
        sync: true,
      }),
    );
  }
  // Synchronous writes: nothing is lost when the CLI exits right after a stop.
  return pino(options, pino.destination({ dest: toStderr ? 2 : 1, sync: true }));
}
