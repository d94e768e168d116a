/**
 * Sampling budgets (SPEC X6): each server may spend at most `samplingBudgetTokens` on
 * sampling, forwarded to agents or answered by a bot. Sampling results carry no token
 * counts, so a forwarded request is charged its prompt and answer at four characters a
 * token; one a bot's provider answered is charged the provider's own count. Before it is forwarded, its
 * prompt and `maxTokens` are reserved, and a request that would not fit is refused.
 * @module
 */
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { SamplingBudgetSpentError } from '../../errors.js';
import type { Db } from '../../storage/create-db.js';
import { recordSamplingUsage, resetSamplingUsage, samplingTotals } from '../../storage/sampling-usage-repo.js';

const textOf = (value: unknown): number => JSON.stringify(value ?? '').length;

/** Estimated tokens of one sampling exchange. */
export function estimateSamplingTokens(request: CreateMessageRequest['params'], result: { content: unknown }): number {
  const prompt = textOf(request.messages) + textOf(request.systemPrompt);
  return Math.max(1, Math.ceil((prompt + textOf(result.content)) / 4));
}

/**
 * A reservation for one request: settle it with the result (charged at the estimate, or
 * at `tokens` when a provider reported its real count) or release it.
 */
export type SamplingHold = { settle(result: { content: unknown }, tokens?: number): number; release(): void };

/** The budgets of one service. */
export type SamplingBudget = Awaited<ReturnType<typeof createSamplingBudget>>;

/**
 * Load the usage so far and start accounting. `shared` (a fleet on one PostgreSQL, K4): the
 * other replicas spend the same budgets, so each reservation and each read of the spend
 * reads the totals every replica wrote (after this replica's own charges are written), and a
 * reset anywhere holds everywhere.
 */
export async function createSamplingBudget({
  db,
  budgetOf,
  log,
  shared = false,
}: {
  db: Db;
  budgetOf: (server: string) => number | undefined;
  log: Logger;
  shared?: boolean;
}) {
  let used = await samplingTotals(db);
  const inFlight = new Map<string, number>();
  let writes: Promise<void> = Promise.resolve();
  /** The fleet's totals read again (own charges written first); what was known is kept if the read fails. */
  const refresh = async (): Promise<void> => {
    if (!shared) return;
    await writes;
    try {
      used = await samplingTotals(db);
    } catch (error) {
      log.warn({ err: error }, "sampling usage not read from the fleet's store; this replica's count is used");
    }
  };
  return {
    /**
     * Reserve what a request may cost (its prompt and `maxTokens`) before it is forwarded,
     * so parallel requests cannot overrun the budget together; rejects with the error the
     * upstream gets when it would not fit. Settle with the real cost, or release.
     */
    async reserve(server: string, request: CreateMessageRequest['params']): Promise<SamplingHold> {
      await refresh();
      const budget = budgetOf(server);
      const held = estimateSamplingTokens(request, { content: '' }) + Math.max(0, request.maxTokens ?? 0);
      const spent = used.get(server) ?? 0;
      const pending = inFlight.get(server) ?? 0;
      if (budget !== undefined && spent + pending + held > budget) {
        throw new SamplingBudgetSpentError(
          `sampling budget of server "${server}" is spent (${spent} of ${budget} tokens used, ${pending} reserved; this request may need ${held}); an operator can reset it`,
        );
      }
      inFlight.set(server, pending + held);
      let open = true;
      const release = () => {
        if (!open) return;
        open = false;
        inFlight.set(server, Math.max(0, (inFlight.get(server) ?? 0) - held));
      };
      return {
        settle: (result, reported) => {
          release();
          const tokens = reported ?? estimateSamplingTokens(request, result);
          used.set(server, (used.get(server) ?? 0) + tokens);
          writes = writes
            .then(() => recordSamplingUsage(db, server, tokens))
            .catch((error: unknown) => log.warn({ err: error, server }, 'sampling usage not persisted'));
          return tokens;
        },
        release,
      };
    },
    /** What `server` has spent, as last read (see `refresh`). */
    used: (server: string): number => used.get(server) ?? 0,
    refresh,
    async reset(server: string): Promise<void> {
      used.delete(server);
      // Queued behind earlier charges, and ahead of later ones, so none is lost or undone.
      const done = writes.then(() => resetSamplingUsage(db, server));
      writes = done.catch((error: unknown) => log.warn({ err: error, server }, 'sampling reset not persisted'));
      await done;
    },
    flush: () => writes,
  };
}
