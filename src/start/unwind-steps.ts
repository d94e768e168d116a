/**
 * A stop's undoing of what a start opened: last first, every step even when one fails or
 * does not finish. A database that stopped answering (no error: a paused server, a network
 * gone quiet) left a step waiting for ever, and the service never stopped. The stop as a whole
 * keeps to a budget ({@link stopBudget}); a step still running when the budget is spent is
 * left behind with a warning, and each step after it still gets a floor — enough for the
 * stdio children's SIGTERM and SIGKILL — so the children end, and the home lock and the
 * database's close, which come last, run.
 * @module
 */

/** One step: what undoes one thing a start did. */
export type UndoStep = () => Promise<unknown> | unknown;

/** What a stop may take beyond its waits of `shutdown.graceMs` (the audit's last writes take up to 10 s). */
export const STOP_SLACK_MS = 15_000;

/**
 * The budget and floor of a stop with `graceMs` of grace: the requests in flight, the agents'
 * calls and the children each get the grace once (docs/operations.md), and the floor is one
 * grace and 2 s: a child's SIGTERM, its SIGKILL, and seeing it gone.
 */
export function stopBudget(graceMs: number): { budgetMs: number; floorMs: number } {
  return { budgetMs: 3 * graceMs + STOP_SLACK_MS, floorMs: graceMs + 2_000 };
}

/** Run `steps` last first, emptying the list, within `budgetMs` (each at least `floorMs`). */
export async function unwindSteps(
  steps: UndoStep[],
  log: { warn(fields: object, message: string): void },
  { budgetMs, floorMs, now = Date.now }: { budgetMs: number; floorMs: number; now?: () => number },
): Promise<void> {
  const deadline = now() + budgetMs;
  for (const step of steps.splice(0).reverse()) {
    const waitMs = Math.max(deadline - now(), floorMs);
    const running = Promise.resolve().then(step);
    // Left behind, it may still fail later: nothing is waiting for it then.
    running.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<typeof LATE>((resolve) => {
      timer = setTimeout(() => resolve(LATE), waitMs);
    });
    try {
      if ((await Promise.race([running, late])) === LATE)
        log.warn({ waitedMs: waitMs }, 'a shutdown step did not finish in time; going on without it');
    } catch (error) {
      log.warn({ err: error }, 'a shutdown step failed; going on');
    } finally {
      clearTimeout(timer);
    }
  }
}

const LATE = Symbol('late');
