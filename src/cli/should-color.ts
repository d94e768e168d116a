/**
 * Whether a command colours what it writes (https://no-color.org): `--color` or `--no-color`
 * decide; without either, no colour when `NO_COLOR` is set (to anything but the empty
 * string) or `TERM=dumb`, else colour when the stream written to is a terminal.
 * @module
 */

/** Colour for `stream`? `flag` is `--color` (true), `--no-color` (false) or neither (undefined). */
export function shouldColor(
  flag: boolean | undefined,
  env: NodeJS.ProcessEnv,
  stream: { isTTY?: boolean } = process.stderr,
): boolean {
  if (flag !== undefined) return flag;
  if (env.NO_COLOR || env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}
