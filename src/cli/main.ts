/**
 * `bnity`: dispatch to a command group. Exit codes (SPEC section 7): 0 success, 1
 * failure, 2 usage error; errors go to stderr in one line that says what to do.
 * @module
 */
import { HubError } from '../errors.js';
import { mcpCommand } from './mcp-command.js';
import { serveCommand } from './serve-command.js';
import { tokenCommand } from './token-command.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: bnity <command> [options]

Commands:
  serve [--config PATH] [--home DIR] [--host H] [--port N]   run the service
  mcp list|status [--json]                                   show supervised servers
  mcp serve --stdio [--bot SLUG | --server NAME]             serve MCP on stdin/stdout
  mcp approve SERVER TOOL                                    lift a rug-pull quarantine
  mcp budget reset SERVER                                    reset a server's sampling budget
  mcp credential set|list|remove [NAME]                      keystore of outgoing credentials
  token create [--bot SLUG] [--name NAME] | list | revoke ID make and revoke API tokens

Run 'bnity <command> --help' for a command's options.`;

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
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serveCommand(rest);
      case 'mcp':
        return await mcpCommand(rest);
      case 'token':
        return await tokenCommand(rest);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(`${HELP}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}": run 'bnity --help' for the list`);
    }
  } catch (error) {
    process.stderr.write(`bnity: ${oneLine(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}
