/** A clock and timers the test moves by hand, for modules that take `now` and `setTimer`. */
export function manualTimers(start = 0) {
  let t = start;
  let timers: { at: number; run: () => void }[] = [];
  const setTimer = (run: () => void, ms: number) => {
    const timer = { at: t + ms, run };
    timers.push(timer);
    return () => {
      timers = timers.filter((x) => x !== timer);
    };
  };
  /** Move the clock by `ms`, running each timer that falls due, in order. */
  const advance = (ms: number) => {
    const end = t + ms;
    for (;;) {
      const due = timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((x) => x !== due);
      t = Math.max(t, due.at);
      due.run();
    }
    t = end;
  };
  return { now: () => t, setTimer, advance, pending: () => timers.length };
}
