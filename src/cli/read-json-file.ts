/**
 * The JSON files `bnity bot skill add` and `workflow add` take (or stdin for `-`): read and
 * parsed, every failure a usage error naming the file.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

type Row = Record<string, unknown>;

/** A JSON file (or stdin for `-`), parsed; a usage error naming the file when it is not JSON. */
async function readJson(file: string): Promise<Row> {
  let text: string;
  try {
    text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    return value as Row;
  } catch (error) {
    throw new UsageError(`${file} is not a JSON object: ${(error as Error).message}`);
  }
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

/** The named item of a JSON file, as `PUT …/{name}` takes it (the name in the path). */
export async function namedBody(file: string, what: string): Promise<{ name: string; body: Row }> {
  const { name, ...body } = await readJson(file);
  if (typeof name !== 'string' || name === '') throw new UsageError(`${file}: a ${what} needs a "name"`);
  return { name, body };
}
