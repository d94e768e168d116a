/**
 * Whether a new skill or workflow would replace one the bot has: `PUT …/{name}` creates or
 * overwrites, so "New skill" with a name in the list would silently replace that skill. The
 * forms refuse it, unless the form edits that very item. Pure, so it is tested without a browser.
 * @module
 */

/** The one-line error for `name` when it is in `taken` (and not `editing`), else null. */
export function nameTaken(
  name: string,
  taken: readonly string[],
  what: 'skill' | 'workflow',
  editing?: string,
): string | null {
  const wanted = name.trim();
  if (wanted === editing || !taken.includes(wanted)) return null;
  return `this bot already has a ${what} named "${wanted}": pick another name, or edit that ${what}`;
}
