/**
 * `bnity`: parse the command line and run one command. Exit codes (SPEC section 7): 0
 * success, 1 failure, 2 usage error; errors go to stderr in one line that says what to do.
 * @module
 */
import { CommanderError } from 'commander';
import { HubError, UsageError } from '../errors.js';
import { buildProgram, type Launch } from './build-program.js';

/** One line that says what went wrong and, for errors we did not raise on purpose, where. */
function oneLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const message = error.message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join('; ');
  if (error instanceof HubError) return message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return `${message}: another program uses that port; pick one with --port`;
  if (code === 'EACCES') return `${message}: permission denied`;
  return message;
}

/** The exit codes of `bnity` (SPEC section 7). */
const EXIT = Object.freeze({ success: 0, failure: 1, usage: 2 });

/** Commander's own endings that have already said all there is (help, version): nothing more is printed. */
const SAID = new Set(['commander.helpDisplayed', 'commander.version', 'commander.help']);

/**
 * The exit code of a failure: the one place the CLI classifies errors, by class and code. A
 * command line that cannot be run as typed (`UsageError`, Commander's refusals) is a usage
 * error; help or the version asked for is success; anything else a failure.
 */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CommanderError)
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? EXIT.success : EXIT.usage;
  return error instanceof UsageError ? EXIT.usage : EXIT.failure;
}

/** Run the CLI with `argv` (without node and script); resolves with the exit code. */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  /** What bin/bnity.js did before the code loaded, for `bnity serve`. */
  launch: Launch = {},
): Promise<number> {
  let code: number = EXIT.success;
  const program = buildProgram(
    env,
    async (command) => {
      code = await command();
    },
    launch,
  );
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (!(error instanceof CommanderError && SAID.has(error.code))) process.stderr.write(`bnity: ${oneLine(error)}\n`);
    return exitCodeOf(error);
  }
}
