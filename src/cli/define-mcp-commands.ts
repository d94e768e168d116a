/**
 * The `bnity mcp …` group: each subcommand's arguments, options and help; its module is
 * imported only when it runs.
 * @module
 */
import type { Command } from 'commander';
import { collect, helpListsEveryCommand, withTarget } from './bnity-command.js';
import type { Launch, Run } from './build-program.js';

/** Add every `mcp` subcommand to `mcp`; `launch` says how the bundle loaded (a standalone `mcp serve` logs it). */
export function defineMcpCommands(mcp: Command, env: NodeJS.ProcessEnv, run: Run, launch: Launch = {}): void {
  withTarget(mcp.command('list').description('the supervised servers and their state')).action((opts) =>
    run(async () => (await import('./mcp-list-command.js')).mcpListCommand(opts, env)),
  );

  withTarget(
    mcp
      .command('status')
      .description('one server in detail (state, retry, latency, counts, pid, last stderr lines); without NAME, list')
      .argument('[name]', 'a server')
      .option('--lines <n>', 'stderr lines to show', '10'),
  ).action((name: string | undefined, opts) =>
    run(async () =>
      name === undefined
        ? (await import('./mcp-list-command.js')).mcpListCommand(opts, env)
        : (await import('./mcp-status-command.js')).mcpStatusCommand(name, opts, env),
    ),
  );

  withTarget(
    mcp
      .command('add')
      .description('add a server: bnity mcp add NAME -- COMMAND ARGS…, or --url URL, or --preset P [-- ARGS…]')
      .argument('<name>', 'the new server name')
      .argument('[command...]', 'after --: the command and its arguments (with --preset: extra arguments)')
      .option('--url <url>', "a remote server's URL (Streamable HTTP or SSE)")
      .option('--transport <type>', 'with --url: http or sse (default: detect)')
      .option('--header <K:V>', 'with --url: an HTTP header (repeatable)', collect)
      .option('--env <K=V>', 'an environment variable of the command (repeatable)', collect)
      .option('--preset <preset>', 'a bundled preset (bnity mcp presets)')
      .option('--credential-key <key>', 'a keystore credential sent as Authorization: Bearer')
      .option('--bot <slug>', "also add it to that bot's additionalServers")
      .option('--service-url <url>', 'the service (default BOTERNITY_URL, else http://127.0.0.1:7777)')
      .option('--no-wait', 'do not wait for the first connection state'),
    { url: false },
  ).action((name: string, command: string[], opts) =>
    run(async () => (await import('./mcp-add-command.js')).mcpAddCommand(name, command, opts, env)),
  );

  withTarget(mcp.command('remove').description('remove a server').argument('<name>', 'a server')).action(
    (name: string, opts) =>
      run(async () => (await import('./mcp-remove-command.js')).mcpRemoveCommand(name, opts, env)),
  );

  withTarget(
    mcp.command('tools').description("a server's tools (needs the service)").argument('<name>', 'a server'),
  ).action((name: string, opts) =>
    run(async () => (await import('./mcp-tools-command.js')).mcpToolsCommand(name, opts, env)),
  );

  withTarget(
    mcp
      .command('search')
      .description(
        "tools of the whole view (or a bot's) ranked for a query, as search_tools ranks them (needs the service)",
      )
      .argument('<query>', 'words, "select:a,b" or "regex:pattern"')
      .option('--bot <slug>', "search that bot's view")
      .option('--limit <n>', 'how many tools at most (default 10)'),
  ).action((query: string, opts) =>
    run(async () => (await import('./mcp-search-command.js')).mcpSearchCommand(query, opts, env)),
  );

  for (const verb of ['connect', 'disconnect'] as const) {
    const cmd = mcp
      .command(verb)
      .description(
        verb === 'connect' ? 'start or retry a server now (needs the service)' : 'stop a server (needs the service)',
      )
      .argument('<name>', 'a server');
    if (verb === 'connect') cmd.option('--no-wait', 'do not wait for the first connection state');
    withTarget(cmd).action((name: string, opts) =>
      run(async () => (await import('./mcp-connect-command.js')).mcpConnectCommand(verb, name, opts, env)),
    );
  }

  withTarget(
    mcp
      .command('auth')
      .description("authorize an HTTP server's OAuth (prints the URL, waits, says 'connected'); --revoke forgets it")
      .argument('<name>', 'a server')
      .option('--paste', 'read the address the browser ended on from stdin (a service on another machine)')
      .option('--no-browser', 'print the URL only, never open a browser')
      .option('--revoke', 'revoke (when the server offers it) and forget the tokens'),
  ).action((name: string, opts) =>
    run(async () => (await import('./mcp-auth-command.js')).mcpAuthCommand(name, opts, env)),
  );

  withTarget(
    mcp
      .command('test-tool')
      .description('call a tool of a server, as an agent would (needs the service)')
      .argument('<server>', 'a server')
      .argument('<tool>', "the tool's name on that server")
      .option(
        '--arg <k=v>',
        'an argument; V is read as JSON when it parses (5, true, "x", [1]), else as text (repeatable)',
        collect,
      )
      .option('--json-args <json>', 'all arguments as one JSON object (--arg values go on top)'),
  ).action((server: string, tool: string, opts) =>
    run(async () => (await import('./mcp-test-tool-command.js')).mcpTestToolCommand(server, tool, opts, env)),
  );

  withTarget(mcp.command('presets').description('the bundled presets and what each needs')).action((opts) =>
    run(async () => (await import('./mcp-presets-command.js')).mcpPresetsCommand(opts, env)),
  );

  withTarget(
    mcp
      .command('logs')
      .description("a stdio server's stderr (needs the service)")
      .argument('<name>', 'a server')
      .option('--lines <n>', 'how many of the last lines', '50')
      .option('-f, --follow', 'keep printing new lines until Ctrl-C'),
  ).action((name: string, opts) =>
    run(async () => (await import('./mcp-logs-command.js')).mcpLogsCommand(name, opts, env)),
  );

  withTarget(
    mcp
      .command('events')
      .description('follow the event stream, one line an event, until Ctrl-C (needs the service)')
      .option('--server <name>', 'only this server (comma-separated for several)')
      .option('--bot <slug>', "only this bot's activity (comma-separated for several)"),
  ).action((opts) => run(async () => (await import('./mcp-events-command.js')).mcpEventsCommand(opts, env)));

  withTarget(
    mcp
      .command('import')
      .description("add the servers of another client's config file")
      .option('--from <source>', 'claude-desktop, cursor, vscode or a file path', 'claude-desktop')
      .option('--force', 'replace servers of the same name')
      .option('--keep-secrets-inline', 'keep env values that look secret in the config instead of the keystore'),
  ).action((opts) => run(async () => (await import('./mcp-import-command.js')).mcpImportCommand(opts, env)));

  withTarget(
    mcp
      .command('serve')
      .description("serve MCP on stdin/stdout (the running service's view, else standalone)")
      .option('--stdio', 'required: speak MCP on stdin/stdout')
      .option('--bot <slug>', "serve that bot's view")
      .option('--server <name>', 'serve that one server, names unchanged')
      .option('--standalone', "serve without a service: supervise the home's config in this process"),
    { json: false },
  ).action((opts) => run(async () => (await import('./mcp-serve-command.js')).mcpServeCommand(opts, env, launch)));

  withTarget(
    mcp
      .command('approve')
      .description('lift the rug-pull quarantine of a changed tool (needs the service)')
      .argument('<server>', 'a server')
      .argument('<tool>', "the tool's name on that server")
      .option('--hash <hash>', 'approve only this reviewed change (from the tool_quarantined event)'),
    { config: false },
  ).action((server: string, tool: string, opts) =>
    run(async () => (await import('./approve-command.js')).approveCommand(server, tool, opts, env)),
  );

  withTarget(
    mcp
      .command('quarantines')
      .description('the tools held by the rug-pull pins, what changed, and churning servers (needs the service)')
      .option('--server <name>', 'only this server'),
    { config: false },
  ).action((opts) => run(async () => (await import('./quarantines-command.js')).quarantinesCommand(opts, env)));

  const budget = mcp.command('budget').description('sampling budgets');
  withTarget(
    budget
      .command('reset')
      .description('forget what a server has spent on sampling (needs the service)')
      .argument('<server>', 'a server'),
    { config: false, json: false },
  ).action((server: string, opts) =>
    run(async () => (await import('./budget-command.js')).budgetReset(server, opts, env)),
  );

  const credential = mcp.command('credential').description('the keystore of outgoing credentials');
  const home = (cmd: Command) =>
    cmd.option('--home <dir>', 'data directory (default BOTERNITY_HOME, else ~/.boternity)');
  home(
    credential.command('set').description('store a secret read from stdin').argument('<name>', 'credential name'),
  ).action((name: string, opts) =>
    run(async () => (await import('./credential-command.js')).credentialSet(name, opts, env)),
  );
  home(
    credential.command('list').description('the credential names').option('--json', 'print JSON for scripts'),
  ).action((opts) => run(async () => (await import('./credential-command.js')).credentialList(opts, env)));
  home(credential.command('remove').description('delete a credential').argument('<name>', 'credential name')).action(
    (name: string, opts) =>
      run(async () => (await import('./credential-command.js')).credentialRemove(name, opts, env)),
  );

  helpListsEveryCommand(mcp);
}
