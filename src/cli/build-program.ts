/**
 * The `bnity` command tree (commander; docs/adr/010-commander-cli.md). Only the tree is
 * built here: each command's module is imported when that command runs, so `--help` and
 * the light commands never load the service (SPEC A4; issue 8: `--help` in ≤ 300 ms).
 * @module
 */
import type { ServiceOptions } from '../main.js';
import { BnityCommand, helpListsEveryCommand, withTarget } from './bnity-command.js';
import { defineBotCommands } from './define-bot-commands.js';
import { defineMcpCommands } from './define-mcp-commands.js';

/** What bin/bnity.js did before the code loaded: children started early (ADR 032), the code cache's fate (ADR 033). */
export type Launch = Pick<ServiceOptions, 'prespawned' | 'codeCache'>;

/** How an action hands back its exit code; commands resolve with it. */
export type Run = (command: () => Promise<number>) => Promise<void>;

/** The whole program; `run` receives each command's exit code. */
export function buildProgram(env: NodeJS.ProcessEnv, run: Run, launch: Launch = {}): BnityCommand {
  const program = new BnityCommand('bnity')
    .description('boternity: supervise MCP servers and serve them, governed, to agents')
    .exitOverride()
    .configureOutput({ outputError: () => undefined })
    .showSuggestionAfterError(true);

  program
    .command('serve')
    .description('run the service until SIGTERM or SIGINT')
    .option('--config <path>', 'config file (default ./boternity.json, else <home>/boternity.json)')
    .option('--home <dir>', 'data directory (default BOTERNITY_HOME, else ~/.boternity)')
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <n>', 'port (default BOTERNITY_PORT, else 7777; 0 picks a free one)')
    .action((opts) => run(async () => (await import('./serve-command.js')).serveCommand(opts, env, launch)));

  defineMcpCommands(program.command('mcp').description('the supervised MCP servers'), env, run, launch);
  defineBotCommands(
    program.command('bot').description('bots: profiles, views, memories, skills, workflows, chat'),
    env,
    run,
  );

  const config = program
    .command('config')
    .description('the desired config: in the database in cluster mode, else the file');
  withTarget(
    config
      .command('export')
      .description("write the config to FILE (else stdout): the database's latest version in cluster mode")
      .argument('[file]', 'where to write it (mode 0600)'),
    { url: false },
  ).action((file: string | undefined, opts) =>
    run(async () => (await import('./config-command.js')).configExport(file, opts, env)),
  );
  withTarget(
    config
      .command('import')
      .description('validate FILE whole, then make it the config: a new version every replica applies in cluster mode')
      .argument('<file>', 'a config file'),
    { url: false },
  ).action((file: string, opts) =>
    run(async () => (await import('./config-command.js')).configImport(file, opts, env)),
  );
  withTarget(
    program.command('cluster').description('the fleet: replicas, their heartbeats and leader, each server on each'),
  ).action((opts) => run(async () => (await import('./cluster-command.js')).clusterCommand(opts, env)));
  withTarget(program.command('ui').description('a new one-time sign-in link for the web UI (good once, for an hour)'), {
    config: false,
  }).action((opts) => run(async () => (await import('./ui-command.js')).uiCommand(opts, env)));

  const token = program.command('token').description('bearer tokens for agents');
  withTarget(
    token
      .command('create')
      .description('make a token and print it (shown once)')
      .option('--name <name>', 'a label for people', 'cli')
      .option('--bot <slug>', "bind it to a bot: it sees that bot's view"),
  ).action((opts) => run(async () => (await import('./token-command.js')).tokenCreate(opts, env)));
  withTarget(token.command('list').description('every token, live and revoked')).action((opts) =>
    run(async () => (await import('./token-command.js')).tokenList(opts, env)),
  );
  withTarget(token.command('revoke').description('revoke a token by id').argument('<id>', 'the token id')).action(
    (id: string, opts) => run(async () => (await import('./token-command.js')).tokenRevoke(id, opts, env)),
  );

  program
    .command('completion')
    .description('print a shell completion script: source <(bnity completion bash)')
    .argument('<shell>', 'bash or zsh')
    .action((shell: string) =>
      run(async () => (await import('./completion-command.js')).completionCommand(shell, program)),
    );

  helpListsEveryCommand(program);
  return program;
}
