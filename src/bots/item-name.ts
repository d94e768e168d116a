/**
 * Names of a bot's skills and workflows: they become MCP prompt names and tool arguments.
 * @module
 */
import { z } from 'zod';

/** 1 to 48 of `a-z 0-9 _ -`, starting with a letter or digit. */
export const ItemNameSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,47}$/,
    'names are 1 to 48 lowercase letters, digits, _ and -, starting with a letter or digit',
  );
