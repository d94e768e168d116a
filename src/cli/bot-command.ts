/**
 * `bnity bot …` (SPEC A4, B1–B3): each verb is one request of the bots' API
 * (docs/api.md#bots), sent to the running service when there is one, else answered in this
 * process on the data directory's files; `workflow run` needs the service. Tables for
 * people, `--json` for scripts.
 * @module
 */
import { HubError, UsageError } from '../errors.js';
import { offlineBotRequest } from './bot-offline.js';
import { changeBotServers } from './bot-servers-command.js';
import { formatTable } from './format-table.js';
import { parsePairs } from './parse-values.js';
import { namedBody } from './read-json-file.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { needService, serviceOrFile } from './service-or-file.js';

/** The verbs of `bnity bot`, as `define-bot-commands.ts` names them. */
export type BotVerb =
  | 'create'
  | 'list'
  | 'show'
  | 'update'
  | 'delete'
  | 'servers-add'
  | 'servers-remove'
  | 'allow'
  | 'deny'
  | 'memory-add'
  | 'memory-list'
  | 'memory-remove'
  | 'skill-add'
  | 'skill-list'
  | 'skill-remove'
  | 'skill-render'
  | 'workflow-add'
  | 'workflow-list'
  | 'workflow-remove'
  | 'workflow-run';

type Flags = TargetFlags & Record<string, unknown>;
type Request = { method: string; path: string; body?: unknown; online?: string };
type Detail = {
  slug: string;
  source: string;
  profile: { name: string; category: string | null; provider: { baseUrl: string; model: string } | null } | null;
  servers: string[];
  warning: string | null;
};
type Row = Record<string, unknown>;

const seg = (value: string) => encodeURIComponent(value);
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A number option, or undefined when absent; a usage error when it is not a number. */
function num(flags: Flags, key: string, flag: string): number | undefined {
  const value = str(flags[key]);
  if (value === undefined) return undefined;
  if (value.trim() === '' || Number.isNaN(Number(value)))
    throw new UsageError(`${flag} must be a number, got "${value}"`);
  return Number(value);
}

/** The profile fields the flags give (section 7's body). */
function profileOf(flags: Flags): Row {
  const url = str(flags.providerUrl);
  const model = str(flags.model);
  const extras = ['credentialKey', 'temperature', 'maxTokens'].some((k) => flags[k] !== undefined);
  if ((url === undefined) !== (model === undefined) || (extras && url === undefined))
    throw new UsageError('a provider needs both --provider-url and --model');
  const entries: [string, unknown][] = [
    ['name', str(flags.name)],
    ['description', str(flags.description)],
    ['category', str(flags.category)],
    ['systemPrompt', str(flags.systemPrompt)],
    ['samplingBudgetTokens', num(flags, 'samplingBudget', '--sampling-budget')],
  ];
  const provider =
    url === undefined
      ? flags.provider === false
        ? null
        : undefined
      : Object.fromEntries(
          [
            ['baseUrl', url],
            ['model', model],
            ['credentialKey', str(flags.credentialKey)],
            ['temperature', num(flags, 'temperature', '--temperature')],
            ['maxTokens', num(flags, 'maxTokens', '--max-tokens')],
          ].filter(([, v]) => v !== undefined),
        );
  return Object.fromEntries([...entries, ['provider', provider]].filter(([, v]) => v !== undefined));
}

/** The request a verb makes. */
async function requestOf(verb: BotVerb, args: (string | string[])[], flags: Flags): Promise<Request> {
  const [slug = '', second = '', third = []] = args as [string?, string?, string[]?];
  const bot = `/api/bots/${seg(slug)}`;
  switch (verb) {
    case 'create':
      if (flags.name === undefined) throw new UsageError('bnity bot create needs --name');
      return { method: 'POST', path: '/api/bots', body: { slug, ...profileOf(flags) } };
    case 'list':
      return { method: 'GET', path: '/api/bots' };
    case 'show':
      return { method: 'GET', path: bot };
    case 'update':
      return { method: 'PATCH', path: bot, body: profileOf(flags) };
    case 'delete':
      return { method: 'DELETE', path: `${bot}${flags.withView ? '?withView=true' : ''}` };
    case 'servers-add':
    case 'servers-remove':
      throw new HubError('internal', `${verb} is answered by changeBotServers`);
    case 'allow':
    case 'deny':
      return { method: 'PATCH', path: `${bot}/permissions/${seg(second)}`, body: { [verb]: third } };
    case 'memory-add':
      return { method: 'POST', path: `${bot}/memories`, body: { content: second, category: str(flags.category) } };
    case 'memory-list': {
      const query = new URLSearchParams(
        Object.entries({ category: str(flags.category), limit: str(flags.limit) }).filter(
          (e): e is [string, string] => e[1] !== undefined,
        ),
      );
      return { method: 'GET', path: `${bot}/memories${query.size ? `?${query}` : ''}` };
    }
    case 'memory-remove':
      return { method: 'DELETE', path: `${bot}/memories/${seg(second)}` };
    case 'skill-add':
    case 'workflow-add': {
      const kind = verb === 'skill-add' ? 'skill' : 'workflow';
      const { name, body } = await namedBody(second, kind);
      return { method: 'PUT', path: `${bot}/${kind}s/${seg(name)}`, body };
    }
    case 'skill-list':
      return { method: 'GET', path: `${bot}/skills` };
    case 'workflow-list':
      return { method: 'GET', path: `${bot}/workflows` };
    case 'skill-remove':
      return { method: 'DELETE', path: `${bot}/skills/${seg(second)}` };
    case 'workflow-remove':
      return { method: 'DELETE', path: `${bot}/workflows/${seg(second)}` };
    case 'skill-render':
      return {
        method: 'POST',
        path: `${bot}/skills/${seg(second)}/render`,
        body: { arguments: parsePairs(flags.arg as string[] | undefined, '=', '--arg') },
      };
    case 'workflow-run': {
      const raw = str(flags.input);
      let input: unknown;
      try {
        input = raw === undefined ? undefined : JSON.parse(raw);
      } catch {
        throw new UsageError(`--input must be JSON, got "${raw}"`);
      }
      return {
        method: 'POST',
        path: `${bot}/workflows/${seg(second)}/run`,
        body: input === undefined ? {} : { input },
        online: `running workflow "${second}" of bot "${slug}"`,
      };
    }
  }
}

/** What a person reads for `verb`'s answer; the exit code is 1 for a failed workflow run. */
function describe(verb: BotVerb, answer: Row): { text: string; code: number } {
  const ok = (text: string) => ({ text, code: 0 });
  const rows = <T>(key: string) => (answer[key] ?? []) as T[];
  switch (verb) {
    case 'list':
      return ok(
        formatTable(
          ['SLUG', 'NAME', 'SOURCE', 'PROVIDER', 'SERVERS'],
          rows<Detail>('bots').map((b) => [
            b.slug,
            b.profile?.name ?? '-',
            b.source,
            b.profile?.provider ? `${b.profile.provider.model} @ ${b.profile.provider.baseUrl}` : '-',
            b.servers.join(',') || '-',
          ]),
        ),
      );
    case 'delete':
      return ok(`deleted ${String(answer.removed)}${answer.view ? ' (and its view in the config file)' : ''}`);
    case 'memory-add':
      return ok(`added memory ${String((answer.memory as Row).id)}`);
    case 'memory-list':
      return ok(
        formatTable(
          ['ID', 'CATEGORY', 'CREATED', 'CONTENT'],
          rows<Row>('memories').map((m) => [String(m.id), String(m.category), String(m.createdAt), String(m.content)]),
        ),
      );
    case 'memory-remove':
    case 'skill-remove':
    case 'workflow-remove':
      return ok(`removed ${String(answer.removed)}`);
    case 'skill-add':
    case 'workflow-add': {
      const item = (answer.skill ?? answer.workflow) as Row;
      return ok(`saved ${verb === 'skill-add' ? 'skill' : 'workflow'} ${String(item.name)}`);
    }
    case 'skill-list':
      return ok(
        formatTable(
          ['NAME', 'ARGUMENTS', 'DESCRIPTION'],
          rows<Row>('skills').map((s) => [
            String(s.name),
            (s.arguments as Row[]).map((a) => String(a.name)).join(',') || '-',
            String(s.description),
          ]),
        ),
      );
    case 'workflow-list':
      return ok(
        formatTable(
          ['NAME', 'STEPS', 'DESCRIPTION'],
          rows<Row>('workflows').map((w) => [
            String(w.name),
            (w.steps as Row[]).map((s) => String(s.tool)).join(' → '),
            String(w.description),
          ]),
        ),
      );
    case 'skill-render':
      return ok(String(answer.text));
    case 'workflow-run': {
      const run = answer.run as { status: string; error: string | null; steps: Row[] };
      const lines = run.steps.map((s) => `${String(s.status).padEnd(9)} ${String(s.id)} (${String(s.tool)})`);
      return { text: [...lines, run.error ?? 'succeeded'].join('\n'), code: run.status === 'succeeded' ? 0 : 1 };
    }
    default: {
      const bot = answer.bot as Detail;
      const provider = bot.profile?.provider;
      const lines = [
        `bot       ${bot.slug} (${bot.source})`,
        `name      ${bot.profile?.name ?? '-'}`,
        `provider  ${provider ? `${provider.model} @ ${provider.baseUrl}` : '-'}`,
        `servers   ${bot.servers.join(', ') || '-'}`,
        ...(bot.warning ? [`warning   ${bot.warning}`] : []),
      ];
      return ok(lines.join('\n'));
    }
  }
}

/** Run `bnity bot VERB …`. */
export async function botCommand(
  verb: BotVerb,
  args: (string | string[])[],
  flags: Flags,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const target = await resolveTarget(flags, env);
  if (verb === 'servers-add' || verb === 'servers-remove')
    return changeBotServers(target, verb === 'servers-add' ? 'POST' : 'DELETE', String(args[0]), String(args[1]));
  const request = await requestOf(verb, args, flags);
  const online = () => target.client.request<Row>(request.method, request.path, request.body);
  const answer = request.online
    ? await needService(request.online, online)
    : (
        await serviceOrFile(target, online, async () => ({
          value: await offlineBotRequest<Row>(target, request.method, request.path, request.body),
          note: `worked on the files in ${target.home}`,
        }))
      ).value;
  if (answer === undefined) throw new HubError('internal', 'the service gave no answer');
  const { text, code } = describe(verb, answer);
  process.stdout.write(`${target.json ? JSON.stringify(answer, null, 2) : text}\n`);
  return code;
}
