// What the benches measure with: a process's CPU ticks (user + system, 10 ms each) from
// /proc, and a percentile of sorted samples.
import { readFileSync } from 'node:fs';

export const cpuTicks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};

export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
