/**
 * What discovery keeps of a server's listing (X8). A catalog item nested deeper than
 * {@link MAX_JSON_DEPTH} levels (a tool whose schema nests thousands of objects) is left out:
 * parsing and zod accept it, but the pin fingerprint, the view fingerprint and the answer to
 * `tools/list` would all recurse through it, and at a few thousand levels each one throws, so
 * a single such tool would keep the whole server unpinned or fail every listing of its views.
 * The server stays connected with the rest of its catalog; one warning per listing names what
 * was left out.
 *
 * A listing is bounded in size too: pages of up to `maxAnswerBytes` (10 MiB) each, followed
 * for up to 1,000 cursors, let a server that never stops paginating fill about 10 GB before
 * anything stopped it. Each kind keeps at most {@link MAX_CATALOG_ITEMS} items and
 * {@link MAX_CATALOG_BYTES} of their JSON (so 64 MiB for a server's four kinds); at the cap
 * no further page is asked for, and one warning per listing names the kind and the cap.
 * @module
 */
import type { Logger } from 'pino';
import type { CatalogKind } from '../../machines/index.js';
import { deeperThan, MAX_JSON_DEPTH } from '../guard/json-depth.js';

/** How many refused names one warning quotes; the rest are counted. */
const NAMES_QUOTED = 20;

/** The most items of one kind a server's listing keeps (10,000 tools is past any real server). */
export const MAX_CATALOG_ITEMS = 10_000;
/** The most item JSON (UTF-16 code units) of one kind a listing keeps: 16 MiB, 64 MiB for all four. */
export const MAX_CATALOG_BYTES = 16 * 1024 * 1024;

/** Collects, page by page, what one kind's listing leaves out; {@link report} warns once. */
export type CatalogSieve<T> = {
  /** The items of one page that are kept. */
  keep(items: readonly T[]): T[];
  /** Whether a cap was reached: no further page should be asked for. */
  full(): boolean;
  /** Logs one warning naming what was left out (nothing when nothing was). */
  report(log: Pick<Logger, 'warn'> | undefined): void;
};

/** A sieve for `kind`; `keyOf` names an item in the warning. */
export function createCatalogSieve<T>(kind: CatalogKind, keyOf: (item: T) => string): CatalogSieve<T> {
  const refused: string[] = [];
  let count = 0;
  let bytes = 0;
  let cap: string | null = null;
  return {
    keep(items) {
      const kept: T[] = [];
      for (const item of items) {
        if (cap !== null) break;
        if (deeperThan(item, MAX_JSON_DEPTH)) {
          refused.push(keyOf(item));
          continue;
        }
        // Measured after the depth check: JSON.stringify recurses. An item that cannot be written counts as nothing.
        const size = JSON.stringify(item)?.length ?? 0;
        if (bytes + size > MAX_CATALOG_BYTES) cap = `${MAX_CATALOG_BYTES} bytes of item JSON`;
        else {
          kept.push(item);
          bytes += size;
          if (++count >= MAX_CATALOG_ITEMS) cap = `${MAX_CATALOG_ITEMS} items`;
        }
      }
      return kept;
    },
    full: () => cap !== null,
    report(log) {
      if (cap !== null)
        log?.warn({ kind, cap, kept: count }, `catalog listing cut at ${cap}: no further page asked for`);
      if (refused.length === 0) return;
      log?.warn(
        { kind, refused: refused.length, items: refused.slice(0, NAMES_QUOTED).map((k) => k.slice(0, 200)) },
        `catalog items left out: nested deeper than ${MAX_JSON_DEPTH} levels`,
      );
    },
  };
}
