/**
 * Sampling budgets (SPEC X6): each server may spend at most `samplingBudgetTokens` on
 * sampling forwarded to agents. Sampling results carry no token counts, so a request is
 * charged its prompt and answer at four characters a token, and never less than nothing;
 * a request that would start over budget is refused with a clear error.
 * @module
 */
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import type { Db } from '../storage/create-db.js';
import { recordSamplingUsage, resetSamplingUsage, samplingTotals } from '../storage/sampling-usage-repo.js';
import { WireError } from './relay-request.js';

const textOf = (value: unknown): number => JSON.stringify(value ?? '').length;

/** Estimated tokens of one sampling exchange. */
export function estimateSamplingTokens(request: CreateMessageRequest['params'], result: { content: unknown }): number {
  const prompt = textOf(request.messages) + textOf(request.systemPrompt);
  return Math.max(1, Math.ceil((prompt + textOf(result.content)) / 4));
}

/** The budgets of one service. */
export type SamplingBudget = Awaited<ReturnType<typeof createSamplingBudget>>;

/** Load the usage so far and start accounting. */
export async function createSamplingBudget({
  db,
  budgetOf,
  log,
}: {
  db: Db;
  budgetOf: (server: string) => number | undefined;
  log: Logger;
}) {
  const used = await samplingTotals(db);
  let writes: Promise<void> = Promise.resolve();
  return {
    /** Throws the error the upstream gets when `server` has spent its budget. */
    check(server: string): void {
      const budget = budgetOf(server);
      if (budget === undefined) return;
      const spent = used.get(server) ?? 0;
      if (spent >= budget) {
        throw new WireError(
          ErrorCode.InvalidRequest,
          `sampling budget of server "${server}" is spent (${spent} of ${budget} tokens); an operator can reset it`,
        );
      }
    },
    /** Charge an answered request to `server`; returns the tokens charged. */
    charge(server: string, request: CreateMessageRequest['params'], result: { content: unknown }): number {
      const tokens = estimateSamplingTokens(request, result);
      used.set(server, (used.get(server) ?? 0) + tokens);
      writes = writes
        .then(() => recordSamplingUsage(db, server, tokens))
        .catch((error: unknown) => log.warn({ err: error, server }, 'sampling usage not persisted'));
      return tokens;
    },
    used: (server: string): number => used.get(server) ?? 0,
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
