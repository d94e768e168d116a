/**
 * A bot's workflows (SPEC B3): named sequences of tool calls, unique by name within a bot.
 * @module
 */
import { and, asc, eq } from 'drizzle-orm';
import { botWorkflowsTable, type StoredWorkflowStep } from './bot-schema.js';
import type { Db } from './create-db.js';
import { rowsAffected } from './db-dialect.js';
import { withBusyRetry } from './with-busy-retry.js';

/** A `bot_workflows` row. */
export type WorkflowRow = typeof botWorkflowsTable.$inferSelect;

const byName = (botId: string, name: string) =>
  and(eq(botWorkflowsTable.botId, botId), eq(botWorkflowsTable.name, name));

/** Create or replace workflow `name` of bot `botId`; `created` tells which. */
export async function upsertWorkflow(
  db: Db,
  botId: string,
  workflow: { name: string; description: string; steps: StoredWorkflowStep[] },
  at = new Date(),
): Promise<{ row: WorkflowRow; created: boolean }> {
  const existed = (await findWorkflowRow(db, botId, workflow.name)) !== null;
  const t = botWorkflowsTable;
  const [row] = await withBusyRetry(() =>
    db
      .insert(t)
      .values({ botId, ...workflow })
      .onConflictDoUpdate({ target: [t.botId, t.name], set: { ...workflow, updatedAt: at } })
      .returning(),
  );
  if (!row) throw new Error('workflow upsert returned no row');
  return { row, created: !existed };
}

/** Workflow `name` of bot `botId`, or null. */
export async function findWorkflowRow(db: Db, botId: string, name: string): Promise<WorkflowRow | null> {
  const [row] = await db.select().from(botWorkflowsTable).where(byName(botId, name)).limit(1);
  return row ?? null;
}

/** Every workflow of bot `botId`, by name. */
export async function listWorkflowRows(db: Db, botId: string): Promise<WorkflowRow[]> {
  const t = botWorkflowsTable;
  return db.select().from(t).where(eq(t.botId, botId)).orderBy(asc(t.name));
}

/** Delete workflow `name` of bot `botId`; false when there was none. */
export async function deleteWorkflowRow(db: Db, botId: string, name: string): Promise<boolean> {
  const result = await withBusyRetry(() => db.delete(botWorkflowsTable).where(byName(botId, name)));
  return rowsAffected(result) > 0;
}
