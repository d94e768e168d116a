/**
 * The one place the browser tests get their Chromium from, so that `npm install && npm test`
 * needs nothing beyond Node: `BOTERNITY_CHROMIUM` (a path) first, then a Chromium or Chrome
 * installed on the machine, then the one the `@sparticuz/chromium` devDependency ships.
 * @module
 */
import { type Browser, chromium } from 'playwright-core';
import { resolveCommand } from '../../src/upstream/spawn-stdio.js';
import { unpackChromium } from './unpack-chromium.js';

/** Names a Chromium or Chrome goes by on PATH, most specific first. */
const INSTALLED_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
/** Where a browser is installed off PATH. */
export const INSTALLED_PLACES = [
  '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];
/**
 * Flags for every browser the tests launch (STACK.md section 0): the network here is closed,
 * and without the background-networking flags Chromium keeps calling hosts that refuse it.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The browser picked: its executable, where it came from (for messages), and extra environment. */
export type ChromiumChoice = { path: string; from: string; env: Record<string, string> };

/**
 * Picks the Chromium the browser tests use, in the order above; `places` are the off-PATH
 * locations to try. Throws a one-line error when `BOTERNITY_CHROMIUM` names no executable.
 */
export async function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  places: readonly string[] = INSTALLED_PLACES,
): Promise<ChromiumChoice> {
  const where = { cwd: process.cwd(), path: env.PATH ?? '' };
  const chosen = env.BOTERNITY_CHROMIUM;
  if (chosen) {
    const path = resolveCommand(chosen, where);
    if (!path) throw new Error(`BOTERNITY_CHROMIUM=${chosen} is not an executable file`);
    return { path, from: 'BOTERNITY_CHROMIUM', env: {} };
  }
  for (const command of [...INSTALLED_NAMES, ...places]) {
    const path = resolveCommand(command, where);
    if (path) return { path, from: 'the Chromium installed on this machine', env: {} };
  }
  const unpacked = await unpackChromium();
  return { path: unpacked.path, from: `@sparticuz/chromium ${unpacked.version}`, env: unpacked.env };
}

/**
 * Launches `choice` (by default the one {@link findChromium} picks) headless with
 * {@link CHROMIUM_ARGS}. A browser that does not start fails with a one-line error naming
 * which one was picked and how to pick another; the launcher's own report is its cause.
 */
export async function launchChromium(choice?: ChromiumChoice): Promise<Browser> {
  const { path, from, env } = choice ?? (await findChromium());
  try {
    return await chromium.launch({
      executablePath: path,
      headless: true,
      args: CHROMIUM_ARGS,
      env: { ...definedOnly(process.env), ...env },
    });
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new Error(
      `Chromium from ${from} (${path}) did not launch: ${reason}; set BOTERNITY_CHROMIUM=/path/to/chromium to use another browser`,
      { cause: error },
    );
  }
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
