/**
 * drizzle-kit settings for PostgreSQL (ADR 036): `npm run db:generate:pg` writes its
 * migrations to `drizzle/pg/`, which `createDb` applies at start under an advisory lock.
 * The SQLite ones stay in `drizzle/` (`drizzle.config.ts`).
 * @module
 */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/storage/pg/pg-schema.ts',
  out: './drizzle/pg',
  dbCredentials: { url: process.env.BOTERNITY_DATABASE_URL ?? 'postgres://localhost/boternity' },
});
