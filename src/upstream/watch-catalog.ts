/**
 * Keeping a catalog fresh (S7): on `notifications/{tools,resources,prompts}/list_changed`
 * re-list the kinds concerned, one re-list at a time, and report the diff. A flood of them
 * (issue 17) costs at most one re-list in flight and one pending, re-lists at least
 * `minIntervalMs` apart. A re-list that fails is tried again (after 0.5 s, doubling up to
 * 30 s) until it passes: the catalog does not stay stale until the next notification.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { type CatalogKind, toErrorInfo } from '../../machines/index.js';
import { createRepeatedWarning } from '../log/repeated-warning.js';
import { diffCatalog, EMPTY_CATALOG, listKinds } from './discover.js';
import type { Catalog, CatalogListener } from './types.js';

/** The catalog of one session and the machinery that keeps it current. */
export type CatalogWatch = {
  /** Registers the list_changed handlers on a client (before it connects); returns it. */
  attach(client: Client): Client;
  /** Sets the catalog of the initial listing; notifications seen before it trigger a re-list. */
  init(catalog: Catalog): void;
  catalog(): Catalog;
  /** Calls `listener` after each re-list that changed something; returns a function that stops it. */
  watch(listener: CatalogListener): () => void;
  /** No more re-lists or listener calls. */
  stop(): void;
};

/** Options of {@link createCatalogWatch}. */
export type CatalogWatchOptions = {
  readonly log: Logger;
  readonly requestTimeoutMs?: number;
  /** The least time from the start of one re-list to the start of the next (default 0). */
  readonly minIntervalMs?: number;
};

/** A failed re-list is tried again after this long, doubled at each failure up to the cap. */
const RETRY_FIRST_MS = 500;
const RETRY_CAP_MS = 30_000;

/** Create the watch; bursts of notifications collapse into as few re-lists as possible. */
export function createCatalogWatch({ log, requestTimeoutMs, minIntervalMs = 0 }: CatalogWatchOptions): CatalogWatch {
  let client: Client | null = null;
  let current: Catalog = EMPTY_CATALOG;
  let ready = false;
  let stopped = false;
  const listeners = new Set<CatalogListener>();
  const dirty = new Set<CatalogKind>();
  let running = false;
  let failures = 0;
  let lastStart = Number.NEGATIVE_INFINITY;
  let wake: (() => void) | null = null;
  const failed = createRepeatedWarning(log, 'catalog re-list failed');
  // Resolves after `ms`, or at once when the watch stops.
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const relist = async () => {
    running = true;
    while (dirty.size > 0 && !stopped && client) {
      const wait = lastStart + minIntervalMs - performance.now();
      if (wait > 0) await pause(wait);
      if (stopped) break;
      lastStart = performance.now();
      const kinds = [...dirty];
      dirty.clear();
      try {
        const options = requestTimeoutMs === undefined ? undefined : { timeout: requestTimeoutMs };
        const next = { ...current, ...(await listKinds(client, kinds, options, log)) };
        failures = 0;
        const changes = diffCatalog(current, next);
        current = next;
        if (changes.length === 0 || stopped) continue;
        for (const listener of listeners) notify(listener, next, changes);
      } catch (error) {
        if (stopped) break;
        failed.warn({ reason: toErrorInfo(error).message, kinds });
        // Still to list: the catalog would otherwise stay stale until the next notification.
        for (const kind of kinds) dirty.add(kind);
        await pause(Math.min(RETRY_CAP_MS, RETRY_FIRST_MS * 2 ** failures++));
      }
    }
    running = false;
  };
  const notify: (...args: [CatalogListener, ...Parameters<CatalogListener>]) => void = (listener, ...args) => {
    try {
      listener(...args);
    } catch (error) {
      log.warn({ err: error }, 'catalog listener threw');
    }
  };
  const onChanged = (kinds: readonly CatalogKind[]) => () => {
    for (const kind of kinds) dirty.add(kind);
    if (ready && !running) void relist();
  };

  return {
    attach(next) {
      client = next;
      next.setNotificationHandler(ToolListChangedNotificationSchema, onChanged(['tools']));
      next.setNotificationHandler(ResourceListChangedNotificationSchema, onChanged(['resources', 'resourceTemplates']));
      next.setNotificationHandler(PromptListChangedNotificationSchema, onChanged(['prompts']));
      return next;
    },
    init(catalog) {
      current = catalog;
      ready = true;
      if (dirty.size > 0 && !running) void relist();
    },
    catalog: () => current,
    watch(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      stopped = true;
      listeners.clear();
      failed.close();
      wake?.();
    },
  };
}
