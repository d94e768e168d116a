/**
 * commander's `Command`, with its errors turned into one-line usage errors (exit 2) that
 * name the help to read, and nothing printed by commander itself (SPEC section 7).
 * @module
 */
import { Command, type ErrorOptions } from 'commander';
import { UsageError } from '../errors.js';

/** A `bnity` command or command group. */
export class BnityCommand extends Command {
  override createCommand(name?: string): BnityCommand {
    return new BnityCommand(name);
  }

  /** `bnity mcp add`: the full name, as typed. */
  path(): string {
    const names: string[] = [];
    for (let cmd: Command | null = this; cmd; cmd = cmd.parent) names.unshift(cmd.name());
    return names.join(' ');
  }

  override error(message: string, options?: ErrorOptions): never {
    const text = message.replace(/^error: /, '').replace(/\s*\(Did you mean (\S+)\?\)/, ' (did you mean "$1"?)');
    if (options?.code === 'commander.unknownCommand') {
      const typed = [...this.path().split(' ').slice(1), this.args[0]].join(' ');
      const hint = closest(
        this.args[0] ?? '',
        this.commands.map((c) => c.name()),
      );
      throw new UsageError(
        `unknown command "${typed}"${hint ? ` (did you mean "${hint}"?)` : ''}: run '${this.path()} --help' for the list`,
      );
    }
    throw new UsageError(`${text.replace(/\.$/, '')}; run '${this.path()} --help'`);
  }
}

/** Collects a repeatable option's values (`--env A=1 --env B=2`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Adds `--url`, `--home` and, unless left out, `--config` and `--json`. */
export function withTarget(
  command: Command,
  { json = true, config = true, url = true }: { json?: boolean; config?: boolean; url?: boolean } = {},
): Command {
  if (url) command.option('--url <url>', 'the service (default BOTERNITY_URL, else http://127.0.0.1:7777)');
  command.option('--home <dir>', 'data directory (default BOTERNITY_HOME, else ~/.boternity)');
  if (config) command.option('--config <path>', 'config file (default ./boternity.json, else <home>/boternity.json)');
  if (json) command.option('--json', 'print JSON for scripts');
  return command;
}

/**
 * Make `group`'s help list every runnable command under it, nested groups included, one
 * line each (commander lists only the direct subcommands).
 */
export function helpListsEveryCommand(group: Command): void {
  group.configureHelp({ visibleCommands: () => [] });
  group.addHelpText('after', () => listEveryCommand(group));
}

function listEveryCommand(root: Command): string {
  const lines: [string, string][] = [];
  const walk = (cmd: Command, prefix: string) => {
    for (const sub of cmd.commands) {
      const name = `${prefix}${sub.name()}`;
      if (sub.commands.length > 0) walk(sub, `${name} `);
      else lines.push([`${name} ${usageOf(sub)}`.trim(), sub.summary() || sub.description().split('\n')[0] || '']);
    }
  };
  walk(root, `${root.name()} `);
  const width = Math.min(64, Math.max(...lines.map(([usage]) => usage.length)));
  return `\nCommands:\n${lines.map(([usage, what]) => `  ${usage.padEnd(width)}  ${what}`).join('\n')}\n`;
}

function usageOf(cmd: Command): string {
  return cmd.registeredArguments
    .map((a) => {
      const name = `${a.name()}${a.variadic ? '...' : ''}`;
      return a.required ? `<${name}>` : `[${name}]`;
    })
    .join(' ');
}

/** The name within two edits of `typed` (the help hides commander's own list, and its suggestions with it). */
function closest(typed: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(typed, name);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length] ?? 0;
}
