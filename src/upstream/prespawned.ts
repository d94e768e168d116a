/**
 * Stdio children started before the service's code has loaded (ADR 032), waiting to be
 * adopted: the first connect of a server whose spawn would be the very same one (same
 * {@link spawnKey}) takes the child instead of spawning; every child not taken is ended,
 * its process group as any upstream's. Only node built-ins are loaded here: `bin/bnity.js`
 * loads this before the bundle.
 * @module
 */
import { killProcessTree } from './process-tree.js';
import { type SpawnedUpstream, type SpawnStdioOptions, type StdioChild, spawnKey } from './spawn-stdio.js';
import type { StderrSink } from './stderr-log.js';

/** At most this much of a waiting child's stderr is held (the oldest is let go). */
const HELD_STDERR_CHARS = 256 * 1024;

/** Children started early, each under its server's name. */
export type Prespawned = {
  /**
   * The child started for `serverId` if `config` would spawn exactly it (taken once), with its
   * stderr held so far written to `stderr` (or a fresh log); undefined otherwise.
   */
  take(
    serverId: string,
    config: SpawnStdioOptions['config'],
    stderr: StderrSink | undefined,
    fresh: () => StderrSink,
  ): SpawnedUpstream | undefined;
  /** Ends every child not taken and takes no more; resolves once their trees are gone. */
  endRest(graceMs?: number): Promise<void>;
  /** The names of the children still waiting (for tests and the log). */
  waiting(): readonly string[];
};

/** A waiting child: its spawn key and the stderr relay it writes to. */
export type PrespawnedChild = {
  readonly key: string;
  readonly child: StdioChild;
  readonly relay: StderrRelay;
};

/** Holds a child's stderr until it has a log, then writes to that log. */
export type StderrRelay = {
  write(chunk: string): void;
  /** Writes what was held to `sink`, and from now on every chunk. */
  adopt(sink: StderrSink): void;
};

/** A relay holding at most {@link HELD_STDERR_CHARS} characters. */
export function createStderrRelay(): StderrRelay {
  let held: string[] = [];
  let heldChars = 0;
  let target: StderrSink | null = null;
  return {
    write(chunk) {
      if (target) return target.write(chunk);
      held.push(chunk);
      heldChars += chunk.length;
      while (heldChars > HELD_STDERR_CHARS && held.length > 1) heldChars -= held.shift()?.length ?? 0;
    },
    adopt(sink) {
      target = sink;
      for (const chunk of held) sink.write(chunk);
      held = [];
      heldChars = 0;
    },
  };
}

/** The pool of `children` (by server name). */
export function createPrespawned(children: ReadonlyMap<string, PrespawnedChild>): Prespawned {
  const waiting = new Map(children);
  let ending: Promise<void> | null = null;
  return {
    take(serverId, config, stderr, fresh) {
      const early = waiting.get(serverId);
      if (!early || spawnKey(config) !== early.key) return undefined;
      waiting.delete(serverId);
      const sink = stderr ?? fresh();
      // As a spawn into a kept log marks where this process's lines start.
      if (stderr && early.child.pid !== null) stderr.started(early.child.pid);
      early.relay.adopt(sink);
      return { stderr: sink, spawned: early.child };
    },
    endRest(graceMs = 3_000) {
      ending ??= Promise.all(
        [...waiting.values()].map(async ({ child }) => {
          if (child.pid === null || child.hasClosed()) return;
          await killProcessTree({ pid: child.pid, graceMs, startTime: child.startTime ?? undefined }).catch(
            () => undefined,
          );
        }),
      ).then(() => undefined);
      waiting.clear();
      return ending;
    },
    waiting: () => [...waiting.keys()],
  };
}
