/**
 * What a bot's provider spent answering servers' sampling requests, against its budget, with
 * **Reset spend** (`POST /api/bots/{slug}/sampling/reset`, asked twice): once spent, a budget
 * refuses further sampling until reset.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Bot } from '../api-types.js';
import { ConfirmButton } from './confirm-button.js';
import { ErrorNote } from './error-note.js';

/** The section; `onChanged` gets the bot with its spend as the reset left it. */
export function BotSampling({ api, bot, onChanged }: { api: ApiClient; bot: Bot; onChanged: (bot: Bot) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState('');
  const reset = async () => {
    setBusy(true);
    setError(null);
    setDone('');
    try {
      const answer = await api.resetBotSampling(bot.slug);
      onChanged({ ...bot, samplingUsedTokens: answer.usedTokens });
      setDone('Spend reset to 0.');
    } catch (failure) {
      setError(`Reset failed: ${(failure as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  const budget = bot.profile?.samplingBudgetTokens ?? null;
  return (
    <section aria-labelledby="bot-sampling-title">
      <h2 id="bot-sampling-title">Sampling</h2>
      {bot.profile ? (
        <>
          <p>
            {`${bot.samplingUsedTokens} tokens spent answering servers' sampling requests${
              budget === null ? ', no budget' : ` of a budget of ${budget}`
            }.`}
          </p>
          <ConfirmButton
            label={busy ? 'Resetting…' : 'Reset spend'}
            question={`Reset ${bot.slug}'s spend to 0?`}
            disabled={busy}
            onConfirm={() => void reset()}
          />
          <p role="status" class="note">
            {done}
          </p>
          <ErrorNote error={error} />
        </>
      ) : (
        <p>Only a bot with a profile answers sampling.</p>
      )}
    </section>
  );
}
