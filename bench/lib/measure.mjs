// What the benches measure with: a process's CPU ticks (user + system, 10 ms each) from
// /proc, a percentile of sorted samples, a median.
import { readFileSync } from 'node:fs';

export const cpuTicks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** A process's CPU so far in milliseconds (its ticks × 10). */
export const cpuMs = (pid) => cpuTicks(pid) * 10;

/** The median of unsorted samples. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
