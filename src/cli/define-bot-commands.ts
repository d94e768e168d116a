/**
 * The `bnity bot …` group (SPEC A4, B1–B4): each subcommand's arguments, options and help;
 * its module is imported only when it runs. Every command but `chat` and `workflow run`
 * works without a service too (on the data directory's database and the config file).
 * @module
 */
import type { Command } from 'commander';
import { collect, helpListsEveryCommand, withTarget } from './bnity-command.js';
import type { BotVerb } from './bot-command.js';
import type { Run } from './build-program.js';

/** The profile options of `create` and `update`. */
function profileOptions(cmd: Command): Command {
  return cmd
    .option('--name <name>', 'the name people see')
    .option('--description <text>', 'what the bot is for')
    .option('--category <category>', 'a category (list_bots filters on it)')
    .option('--system-prompt <text>', 'its system prompt')
    .option('--provider-url <url>', 'an OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1')
    .option('--model <model>', "the provider's model")
    .option('--credential-key <key>', 'a keystore credential sent as the API key (bnity mcp credential set)')
    .option('--temperature <t>', 'sampling temperature, 0 to 2')
    .option('--max-tokens <n>', 'most tokens an answer may have')
    .option('--sampling-budget <n>', "tokens its provider may spend on servers' sampling");
}

/** Add every `bot` subcommand to `bot`. */
export function defineBotCommands(bot: Command, env: NodeJS.ProcessEnv, run: Run): void {
  const act =
    (verb: BotVerb) =>
    (...args: unknown[]) => {
      // commander passes the arguments, then the options, then the command.
      const opts = args.at(-2) as Record<string, unknown>;
      const positional = args.slice(0, -2) as (string | string[])[];
      return run(async () => (await import('./bot-command.js')).botCommand(verb, positional, opts, env));
    };

  withTarget(profileOptions(bot.command('create').description('create a bot').argument('<slug>', 'its slug'))).action(
    act('create'),
  );
  withTarget(bot.command('list').description('every bot, registry and config file joined')).action(act('list'));
  withTarget(bot.command('show').description('one bot: profile, view, servers').argument('<slug>', 'a bot')).action(
    act('show'),
  );
  withTarget(
    profileOptions(bot.command('update').description("change a bot's profile").argument('<slug>', 'a bot')).option(
      '--no-provider',
      'remove its provider',
    ),
  ).action(act('update'));
  withTarget(
    bot
      .command('delete')
      .description('delete a bot with its memories, skills, workflows and chats')
      .argument('<slug>', 'a bot')
      .option('--with-view', "also remove its view from the config file's bots"),
  ).action(act('delete'));

  const servers = bot.command('servers').description("the servers in a bot's view");
  for (const verb of ['add', 'remove'] as const)
    withTarget(
      servers
        .command(verb)
        .description(verb === 'add' ? 'add a server to its view' : 'take a server out of its view')
        .argument('<slug>', 'a bot')
        .argument('<server>', 'a configured server'),
    ).action(act(verb === 'add' ? 'servers-add' : 'servers-remove'));
  for (const verb of ['allow', 'deny'] as const)
    withTarget(
      bot
        .command(verb)
        .description(verb === 'allow' ? 'allow tools of a server (then only allowed ones)' : 'deny tools of a server')
        .argument('<slug>', 'a bot')
        .argument('<server>', 'a configured server')
        .argument('<tools...>', 'tool names as the server has them'),
    ).action(act(verb));

  const memory = bot.command('memory').description("a bot's memories");
  withTarget(
    memory
      .command('add')
      .description('add a memory')
      .argument('<slug>', 'a bot')
      .argument('<text>', 'the fact to remember')
      .option('--category <category>', 'its category (default general)'),
  ).action(act('memory-add'));
  withTarget(
    memory
      .command('list')
      .description('memories, newest first')
      .argument('<slug>', 'a bot')
      .option('--category <category>', 'only this category')
      .option('--limit <n>', 'at most this many (default 50)'),
  ).action(act('memory-list'));
  withTarget(
    memory.command('remove').description('delete a memory').argument('<slug>', 'a bot').argument('<id>', 'its id'),
  ).action(act('memory-remove'));

  const skill = bot.command('skill').description("a bot's skills (served as MCP prompts)");
  withTarget(
    skill
      .command('add')
      .description('create or replace a skill from a JSON file {name, template, description?, arguments?}')
      .argument('<slug>', 'a bot')
      .argument('<file>', 'the JSON file (- for stdin)'),
  ).action(act('skill-add'));
  withTarget(skill.command('list').description('the skills').argument('<slug>', 'a bot')).action(act('skill-list'));
  withTarget(
    skill.command('remove').description('delete a skill').argument('<slug>', 'a bot').argument('<name>', 'a skill'),
  ).action(act('skill-remove'));
  withTarget(
    skill
      .command('render')
      .description('render a skill with its arguments')
      .argument('<slug>', 'a bot')
      .argument('<name>', 'a skill')
      .option('--arg <k=v>', 'an argument (repeatable)', collect),
  ).action(act('skill-render'));

  const workflow = bot.command('workflow').description("a bot's workflows");
  withTarget(
    workflow
      .command('add')
      .description('create or replace a workflow from a JSON file {name, steps, description?}')
      .argument('<slug>', 'a bot')
      .argument('<file>', 'the JSON file (- for stdin)'),
  ).action(act('workflow-add'));
  withTarget(workflow.command('list').description('the workflows').argument('<slug>', 'a bot')).action(
    act('workflow-list'),
  );
  withTarget(
    workflow
      .command('remove')
      .description('delete a workflow')
      .argument('<slug>', 'a bot')
      .argument('<name>', 'a workflow'),
  ).action(act('workflow-remove'));
  withTarget(
    workflow
      .command('run')
      .description('run a workflow through the gateway (needs the service)')
      .argument('<slug>', 'a bot')
      .argument('<name>', 'a workflow')
      .option('--input <json>', 'its input, as JSON'),
  ).action(act('workflow-run'));

  withTarget(
    bot
      .command('chat')
      .description('one chat turn, printed as it streams (needs the service)')
      .argument('<slug>', 'a bot')
      .argument('<message>', 'what to say')
      .option('--session <id>', 'continue this chat session')
      .option('--full', 'show long tool arguments and results whole, not folded')
      .option('--color', 'colour the tool blocks even when stderr is not a terminal')
      .option('--no-color', 'never colour (also NO_COLOR=1)'),
    { config: false },
  ).action((slug: string, message: string, opts) =>
    run(async () => (await import('./bot-chat-command.js')).botChatCommand(slug, message, opts, env)),
  );

  helpListsEveryCommand(bot);
}
