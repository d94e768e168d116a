/**
 * `bnity mcp logs NAME [--follow] [--json]`: the stderr lines of a stdio server, kept by the
 * running service across restarts. `--follow` asks again every second and prints only what is
 * new, until Ctrl-C (or until the service stops). `--json`: `{"server","lines"}`; with
 * `--follow`, one `{"server","line"}` object a line (JSON Lines), as they come.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseCount } from './parse-values.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { needService } from './service-or-file.js';

/** How often `--follow` asks for new lines. */
const FOLLOW_EVERY_MS = 1_000;

/** Run `bnity mcp logs NAME`. */
export async function mcpLogsCommand(
  name: string,
  flags: TargetFlags & { lines: string; follow?: boolean },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const tail = parseCount(flags.lines, '--lines');
  const { client, json } = await resolveTarget(flags, env);
  const path = `/api/servers/${encodeURIComponent(name)}/stderr`;
  const read = async () => (await client.get<{ lines: string[] }>(path)).lines;
  let seen = await needService(`reading the logs of "${name}"`, read);
  const print = (lines: readonly string[]) => {
    if (lines.length === 0) return;
    const out = json ? lines.map((line) => JSON.stringify({ server: name, line })) : lines;
    process.stdout.write(`${out.join('\n')}\n`);
  };
  if (json && !flags.follow) {
    process.stdout.write(`${JSON.stringify({ server: name, lines: seen.slice(-tail) }, null, 2)}\n`);
    return 0;
  }
  if (!flags.follow) {
    print(seen.slice(-tail));
    return 0;
  }
  // Listened for before the first line is printed: a Ctrl-C as soon as it shows is a clean stop.
  const stop = new AbortController();
  const quit = () => stop.abort();
  process.once('SIGINT', quit);
  process.once('SIGTERM', quit);
  try {
    print(seen.slice(-tail));
    for (;;) {
      await sleep(FOLLOW_EVERY_MS, undefined, { signal: stop.signal });
      const now = await read();
      print(newLines(seen, now));
      seen = now;
    }
  } catch (error) {
    if (stop.signal.aborted) return 0;
    throw error;
  } finally {
    process.off('SIGINT', quit);
    process.off('SIGTERM', quit);
  }
}

/**
 * The lines of `now` that `before` did not have. The service keeps the last N lines, so
 * `now` is `before` with some lines dropped from the front and some added at the end: find
 * the longest end of `before` that `now` starts with.
 */
export function newLines(before: readonly string[], now: readonly string[]): string[] {
  for (let drop = 0; drop < before.length; drop++) {
    const kept = before.length - drop;
    if (kept > now.length) continue;
    let same = true;
    for (let i = 0; i < kept && same; i++) same = before[drop + i] === now[i];
    if (same) return now.slice(kept);
  }
  return [...now];
}
