/**
 * Paths of the fixture MCP servers in test/support, and a logger that stays quiet.
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Logger, pino } from 'pino';
import { inject } from 'vitest';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** Where the run's global setup bundled the fixture servers (bundle-fixture-servers.ts), if it did. */
function bundledDir(): string | undefined {
  try {
    return inject('fixtureServers');
  } catch {
    return undefined;
  }
}
const bundled = bundledDir();

/** The bundle at `path` under the run's bundles (bundle-fixture-servers.ts), if the run made it. */
export function bundledFixture(path: string): string | undefined {
  const built = bundled === undefined ? undefined : join(bundled, path);
  return built !== undefined && existsSync(built) ? built : undefined;
}

/**
 * The path to spawn fixture server `file` of test/support (`tiny-server.mjs`): its bundle, which
 * starts in a third of the CPU time, where the run made one; else the source.
 */
export function fixtureServer(file: string): string {
  return bundledFixture(file) ?? here(`./${file}`);
}

/** Stdio server with one `echo` tool; env TINY_STDERR_LINES, TINY_IGNORE_SIGTERM. */
export const TINY_SERVER = fixtureServer('tiny-server.mjs');
/** Stdio server whose `fetch` tool answers a GET of its url (a test holds the call as long as it likes) and `echo`. */
export const GATE_SERVER = fixtureServer('gate-server.mjs');
/** Stdio server whose `add_tool` tool adds tools and sends tools/list_changed. */
export const DYNAMIC_SERVER = fixtureServer('dynamic-server.mjs');
/** Stdio server that pages tools, resources, templates and prompts two at a time. */
export const PAGED_SERVER = fixtureServer('paged-server.mjs');
/** Stdio server for gateway tests: 70-char tool name, slow/cancellable tool, sampling, add_tool. */
export const GATEWAY_SERVER = fixtureServer('gateway-server.mjs');
/** Stdio server that answers `initialize` and never answers `tools/list`. */
export const SILENT_LIST_SERVER = fixtureServer('silent-list-server.mjs');
/** Stdio server whose `spin` tool keeps its CPU busy without yielding; and `echo`. */
export const BUSY_SERVER = fixtureServer('busy-server.mjs');
/** Stdio server with a text, a JSON and a PNG resource, a template, a prompt `greet`, and completions. */
export const CATALOG_SERVER = fixtureServer('catalog-server.mjs');
/** The PNG (1x1, 69 bytes) CATALOG_SERVER serves as `data://pixel.png`, base64. */
export const CATALOG_PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGO4o6EBAAMQAS0ujiXaAAAAAElFTkSuQmCC';
/** Preload that binds host-less Node listeners to 127.0.0.1. */
export const BIND_LOCALHOST = here('./bind-localhost.cjs');

/** A pino logger at BOTERNITY_LOG_LEVEL (silent in tests by default). */
export function testLogger(): Logger {
  return pino({ level: process.env.BOTERNITY_LOG_LEVEL ?? 'silent' });
}
