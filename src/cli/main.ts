/**
 * `bnity`: parse the command line and run one command. Exit codes (SPEC section 7): 0
 * success, 1 failure, 2 usage error; errors go to stderr in one line that says what to do.
 * @module
 */
import { CommanderError } from 'commander';
import { HubError, UsageError } from '../errors.js';
import { buildProgram } from './build-program.js';

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

/** Run the CLI with `argv` (without node and script); resolves with the exit code. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let code = 0;
  const program = buildProgram(env, async (command) => {
    code = await command();
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // `--help` asked for: 0. A group run without its subcommand printed its help: usage error.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      if (error.code === 'commander.help') return 2;
    }
    process.stderr.write(`bnity: ${oneLine(error)}\n`);
    return error instanceof UsageError || error instanceof CommanderError ? 2 : 1;
  }
}
