/**
 * A server's sampling spend on its page (X6): the tokens its sampling requests used against
 * its budget (`samplingUsedTokens` / `samplingBudgetTokens` of `GET /api/servers/{name}`),
 * and **Reset spend**, which asks once more, then sets it back to zero
 * (`POST /api/servers/{name}/sampling/reset`). Read again when the server connects.
 * @module
 */
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api.js';
import type { Server } from '../api-types.js';
import { useLiveEvent } from '../live.js';
import { useLoad } from '../use-load.js';
import { ConfirmButton } from './confirm-button.js';
import { ErrorNote } from './error-note.js';

const tokens = (n: number) => `${n.toLocaleString('en')} token${n === 1 ? '' : 's'}`;

/** The spend in words: `1,200 of 5,000 tokens (24%)`, or without a budget `1,200 tokens, no budget`. */
export function spendShown(server: Pick<Server, 'samplingUsedTokens' | 'samplingBudgetTokens'>): string {
  const used = server.samplingUsedTokens;
  const budget = server.samplingBudgetTokens;
  if (budget === null) return `${tokens(used)}, no budget`;
  const share = budget > 0 ? ` (${Math.round((used / budget) * 100)}%)` : '';
  return `${used.toLocaleString('en')} of ${tokens(budget)}${share}`;
}

/** The section of server `name`. */
export function ServerSampling({ api, name }: { api: ApiClient; name: string }) {
  const loaded = useLoad(() => api.server(name), [name]);
  useLiveEvent((event) => event.server === name && event.type === 'connected', loaded.reload);
  const [after, setAfter] = useState<Server | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const server = after ?? loaded.data?.server ?? null;
  const reset = () => {
    setError(null);
    setNotice(null);
    api.resetSampling(name).then(
      (answer) => {
        setAfter(answer.server);
        setNotice('Spend reset to 0.');
      },
      (failure: Error) => setError(`Could not reset the sampling spend of ${name}: ${failure.message}`),
    );
  };
  return (
    <section class="card sampling" aria-labelledby="sampling-title">
      <h2 id="sampling-title">Sampling spend</h2>
      {server ? (
        <p class="commands">
          <span data-sampling-used={server.samplingUsedTokens}>{spendShown(server)}</span>{' '}
          {server.samplingBudgetTokens !== null && server.samplingUsedTokens >= server.samplingBudgetTokens && (
            <span class="error">budget spent: sampling requests are refused</span>
          )}{' '}
          <ConfirmButton label="Reset spend" question={`Reset the sampling spend of ${name} to 0?`} onConfirm={reset} />
        </p>
      ) : (
        !loaded.error && <p class="note">Loading…</p>
      )}
      <ErrorNote error={error ?? loaded.error} />
      <p class="note" role="status">
        {notice}
      </p>
    </section>
  );
}
