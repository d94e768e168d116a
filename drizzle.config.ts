/**
 * drizzle-kit settings: `npm run db:generate` writes migrations to `drizzle/`, which
 * `createDb` applies at start. `DATABASE_URL` is only read by `drizzle-kit migrate|check`.
 * @module
 */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/storage/schema.ts',
  out: './drizzle',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'file:./.data/boternity.db' },
});
