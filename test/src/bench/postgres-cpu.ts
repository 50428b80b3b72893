import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const TICKS = 100; // USER_HZ on Linux

/** CPU seconds (user + system) of a cluster's postmaster and every backend it forked (`dataDir`: the cluster's). */
export function postgresCpuSeconds(dataDir: string): number {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let total = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(pid) !== postmaster && Number(fields[1]) !== postmaster) continue;
      total += (Number(fields[11]) + Number(fields[12])) / TICKS;
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

/** Busy CPU seconds of the whole machine (every core; idle and iowait left out). */
export function machineBusySeconds(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = fields.map(Number);
  return (n.reduce((a, b) => a + b, 0) - n[3]! - n[4]!) / TICKS;
}

/** CPU seconds (user + system) of the processes `roots` and all their descendants (a supervisor's children included). */
export function processTreeCpuSeconds(roots: number[]): number {
  const stats = new Map<number, { parent: number; seconds: number }>();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      stats.set(Number(pid), { parent: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / TICKS });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = stats.get(p)?.parent ?? 0, hops++) if (roots.includes(p)) return true;
    return false;
  };
  let total = 0;
  for (const [pid, s] of stats) if (inTree(pid)) total += s.seconds;
  return total;
}
