/**
 * `bnity mcp quarantines`: the tools the rug-pull pins hold (SPEC X5), each with what
 * changed and a line of before and after around the first difference (a text cut by the pin
 * says so, with its full length), and the servers whose catalog churns; `--json` gives the
 * API's answers whole. Needs the running service.
 * @module
 */
import type { QuarantinesAnswer } from '../http/api/index.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { needService } from './service-or-file.js';

type Quarantines = QuarantinesAnswer;
type Held = Quarantines['quarantines'][number];
type PinText = NonNullable<NonNullable<Held['pinned']>['description']>;

/** How much of a text one line shows. */
const WIDTH = 100;

/** Where two texts first differ (their common length when one is a prefix of the other). */
function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  return i;
}

/** A line of `text` from `at` (less a little context), newlines shown as ⏎, with where it was cut. */
function excerpt(text: PinText | null, at: number): string {
  if (!text) return '(none)';
  const from = Math.max(0, at - 20);
  const shown = text.text.slice(from, from + WIDTH).replaceAll('\n', '⏎');
  const more = from + WIDTH < text.text.length ? '…' : '';
  const cut = text.truncated
    ? ` [cut: ${text.text.length.toLocaleString('en')} of ${text.length.toLocaleString('en')} characters kept]`
    : '';
  return `${from > 0 ? '…' : ''}${shown}${more}${cut}`;
}

/** The lines that describe one held tool. */
export function describeHeld(held: Held): string[] {
  const head = `${held.server}/${held.tool}  since ${held.since}  changed: ${held.changed?.join(', ') || 'unknown (pinned before texts were kept)'}`;
  const fields = held.changed && held.changed.length > 0 ? held.changed : [];
  const lines = [head];
  for (const field of fields) {
    const before = held.pinned?.[field] ?? null;
    const after = held.pending?.[field] ?? null;
    const at = before && after ? firstDifference(before.text, after.text) : 0;
    const beyond =
      before && after && before.text === after.text ? ' (the kept texts are the same: the change is past them)' : '';
    lines.push(`  ${field} before: ${excerpt(before, at)}`, `  ${field} now:    ${excerpt(after, at)}${beyond}`);
  }
  lines.push(`  approve: bnity mcp approve ${held.server} ${held.tool} --hash ${held.pendingHash}`);
  return lines;
}

/** Run `bnity mcp quarantines`. */
export async function quarantinesCommand(
  flags: TargetFlags & { server?: string },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { client, json } = await resolveTarget(flags, env);
  const [answer, servers] = await needService('listing the quarantines', () =>
    Promise.all([
      client.get<Quarantines>('/api/quarantines'),
      client.get<{ servers: { name: string; catalogChurning?: boolean }[] }>('/api/servers'),
    ]),
  );
  const wanted = (server: string) => flags.server === undefined || flags.server === server;
  const held = answer.quarantines.filter((q) => wanted(q.server));
  const churning = servers.servers.filter((s) => s.catalogChurning && wanted(s.name)).map((s) => s.name);
  if (json) {
    process.stdout.write(`${JSON.stringify({ policy: answer.policy, quarantines: held, churning }, null, 2)}\n`);
    return 0;
  }
  const out = churning.map(
    (name) =>
      `server "${name}": its tools change too often; their changes are summarized once per window (catalog_churn)`,
  );
  out.push(
    held.length === 0 ? `nothing is held (policy ${answer.policy})` : `${held.length} held (policy ${answer.policy})`,
  );
  for (const one of held) out.push(...describeHeld(one));
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
