/**
 * A listing of the view's items followed by the bot items a session is served (G8), the
 * same array while neither part changed.
 * @module
 */
import type { CallPath } from './call-path.js';

/**
 * The view's listing followed by the bot items: the array made last time when neither
 * changed. The bots give the same array while no bot changed, so the text comparison runs
 * only after a change (or when some bot names were left out, a new array each time).
 */
export function withBotItems(path: CallPath, own: readonly unknown[], bot: readonly unknown[]): unknown[] {
  if (bot.length === 0) return own as unknown[];
  const last = path.listings.get(own);
  if (last?.bot === bot) return last.items;
  const key = JSON.stringify(bot);
  if (last?.key === key) {
    path.listings.set(own, { ...last, bot });
    return last.items;
  }
  const items = [...own, ...bot];
  path.listings.set(own, { bot, key, items });
  return items;
}
