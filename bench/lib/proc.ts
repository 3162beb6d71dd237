// CPU and memory of a process (the server child), read from /proc; and the machine's load and CPU steal.

import { readFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';

const TICK_MS = 10; // USER_HZ is 100 on Linux

export interface ProcSample {
  at: number;
  cpuMs: number;
  rssMb: number;
}

export function sampleProc(pid: number): ProcSample | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11] = utime, fields[12] = stime (fields 14 and 15 of stat, after pid and comm)
    const cpuMs = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(status);
    return { at: performance.now(), cpuMs, rssMb: rss ? Number(rss[1]) / 1024 : 0 };
  } catch {
    return null;
  }
}

/** CPU use between two samples, in cores (1.0 = one core busy). */
export function coresUsed(a: ProcSample, b: ProcSample): number {
  return b.at > a.at ? (b.cpuMs - a.cpuMs) / (b.at - a.at) : 0;
}

export interface MachineInfo {
  cpus: number;
  model: string;
  node: string;
  loadavg: number[];
  date: string;
  /** Machine-wide CPU ticks from /proc/stat, all and stolen (null off Linux). */
  ticks: { total: number; steal: number } | null;
}

/** Steal = time the hypervisor ran other guests on this machine's vCPUs: on a shared host it
 * inflates every latency here, so each report gives it for its own run. */
function cpuTicks(): MachineInfo['ticks'] {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    return { total: f.reduce((a, b) => a + b, 0), steal: f[7] ?? 0 };
  } catch {
    return null;
  }
}

export function machine(): MachineInfo {
  const c = cpus();
  return { cpus: c.length, model: c[0]?.model ?? 'unknown', node: process.version, loadavg: loadavg().map((x) => Math.round(x * 100) / 100), date: new Date().toISOString(), ticks: cpuTicks() };
}

export function machineLine(m: MachineInfo, end?: MachineInfo): string {
  const la = (x: MachineInfo) => x.loadavg.join(' / ');
  const steal = end?.ticks && m.ticks && end.ticks.total > m.ticks.total ? (end.ticks.steal - m.ticks.steal) / (end.ticks.total - m.ticks.total) : null;
  return `${m.cpus} × ${m.model}, Node ${m.node}, ${m.date.slice(0, 16).replace('T', ' ')} UTC; load average (1/5/15 min) ${la(m)} at the start${end ? `, ${la(end)} at the end` : ''}${steal === null ? '' : `; CPU steal ${(100 * steal).toFixed(1)} % of the run: time the host gave this machine's CPUs to other guests`} (the machine is shared: other work running at the same time inflates the numbers)`;
}
