import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = {
  [K in keyof O]?: O[K] extends { type: 'boolean' } ? boolean : string;
};

/** Parse `argv` strictly (no positionals); a bad flag is a usage error that names `command`'s help. */
export function parseFlags<O extends Options>(argv: readonly string[], options: O, command: string): Values<O> {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values as Values<O>;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}; run 'bnity ${command} --help'`);
  }
}
