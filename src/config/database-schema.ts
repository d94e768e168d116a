/**
 * The config's `database` section (ADR 036): `url`, a `postgres://` URL, puts every table on
 * that PostgreSQL database; `BOTERNITY_DATABASE_URL` wins over it. Without either, the
 * SQLite file in the data directory.
 * @module
 */
import { z } from 'zod';

export const DatabaseSchema = z
  .object({
    url: z
      .string()
      .regex(/^postgres(ql)?:\/\//i, 'must be a postgres:// URL')
      .optional(),
  })
  .strict();
