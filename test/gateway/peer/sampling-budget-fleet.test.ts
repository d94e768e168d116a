/**
 * A server's sampling budget across replicas (SPEC X6 under K4): two replicas' budgets on one
 * PostgreSQL database spend one budget — what one spent is refused on the other once the
 * budget is gone, a reset on either holds on both, and the spend each shows is the fleet's.
 * A single service (SQLite) keeps its count in memory as before.
 */
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { SamplingBudgetSpentError } from '../../../src/errors.js';
import { createSamplingBudget } from '../../../src/gateway/peer/sampling-budget.js';
import type { OpenDb } from '../../../src/storage/create-db.js';
import { openSharedPostgres } from '../../support/test-db.js';

const log = pino({ level: 'silent' });
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A request whose reservation is its prompt (about 10 tokens) and `maxTokens`. */
const request = (maxTokens: number): CreateMessageRequest['params'] => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'hello there' } }],
  maxTokens,
});
/** An answer charged at about 250 tokens with its prompt. */
const answer = { content: { type: 'text', text: 'x'.repeat(1_000) } };

describe('sampling budgets of replicas on one PostgreSQL database', () => {
  it('spends one budget: refused on one replica once the other spent it, reset on either for both', async () => {
    const shared = await openSharedPostgres(2);
    cleanup.push(() => shared.close());
    const [storeA, storeB] = shared.stores as [OpenDb, OpenDb];
    const budgetOf = (server: string) => (server === 'llm' ? 400 : undefined);
    const a = await createSamplingBudget({ db: storeA.db, budgetOf, log, shared: true });
    const b = await createSamplingBudget({ db: storeB.db, budgetOf, log, shared: true });

    const spent = (await a.reserve('llm', request(50))).settle(answer);
    expect(spent).toBeGreaterThan(250);
    // Its charge written (a moment after the answer).
    await a.flush();
    // B has spent nothing itself: what A spent is what it refuses on.
    const refusal = await b.reserve('llm', request(200)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SamplingBudgetSpentError);
    expect((refusal as Error).message).toMatch(/^sampling budget of server "llm" is spent \(\d+ of 400 tokens used/);
    await b.refresh();
    expect(b.used('llm')).toBe(spent);
    // A reset on B holds on A.
    await b.reset('llm');
    const hold = await a.reserve('llm', request(200));
    hold.release();
    await a.refresh();
    expect(a.used('llm')).toBe(0);
    // A server with no budget is never refused, on either.
    (await b.reserve('other', request(10_000))).settle(answer);
  });

  it('keeps counting on its own when the store cannot be read', async () => {
    const shared = await openSharedPostgres(1);
    const [store] = shared.stores as [OpenDb];
    const budget = await createSamplingBudget({ db: store.db, budgetOf: () => 300, log, shared: true });
    const spent = (await budget.reserve('llm', request(10))).settle(answer);
    await budget.flush();
    await shared.close();
    // The database gone: the replica's own count still refuses what would overrun.
    await expect(budget.reserve('llm', request(100))).rejects.toBeInstanceOf(SamplingBudgetSpentError);
    expect(budget.used('llm')).toBe(spent);
  });
});
