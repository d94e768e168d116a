/**
 * What discovery keeps of a server's listing (X8). A catalog item nested deeper than
 * {@link MAX_JSON_DEPTH} levels (a tool whose schema nests thousands of objects) is left out:
 * parsing and zod accept it, but the pin fingerprint, the view fingerprint and the answer to
 * `tools/list` would all recurse through it, and at a few thousand levels each one throws, so
 * a single such tool would keep the whole server unpinned or fail every listing of its views.
 * The server stays connected with the rest of its catalog; one warning per listing names what
 * was left out.
 * @module
 */
import type { Logger } from 'pino';
import type { CatalogKind } from '../../machines/index.js';
import { deeperThan, MAX_JSON_DEPTH } from '../guard/json-depth.js';

/** How many refused names one warning quotes; the rest are counted. */
const NAMES_QUOTED = 20;

/** Collects, page by page, what one kind's listing leaves out; {@link report} warns once. */
export type CatalogSieve<T> = {
  /** The items of one page that are kept. */
  keep(items: readonly T[]): T[];
  /** Logs one warning naming what was left out (nothing when nothing was). */
  report(log: Pick<Logger, 'warn'> | undefined): void;
};

/** A sieve for `kind`; `keyOf` names an item in the warning. */
export function createCatalogSieve<T>(kind: CatalogKind, keyOf: (item: T) => string): CatalogSieve<T> {
  const refused: string[] = [];
  return {
    keep(items) {
      const kept: T[] = [];
      for (const item of items) {
        if (deeperThan(item, MAX_JSON_DEPTH)) refused.push(keyOf(item));
        else kept.push(item);
      }
      return kept;
    },
    report(log) {
      if (refused.length === 0) return;
      log?.warn(
        { kind, refused: refused.length, items: refused.slice(0, NAMES_QUOTED).map((k) => k.slice(0, 200)) },
        `catalog items left out: nested deeper than ${MAX_JSON_DEPTH} levels`,
      );
    },
  };
}
