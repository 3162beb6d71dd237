// CPU and memory of a process (the server child), read from /proc; and the machine's load.

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
}

export function machine(): MachineInfo {
  const c = cpus();
  return { cpus: c.length, model: c[0]?.model ?? 'unknown', node: process.version, loadavg: loadavg().map((x) => Math.round(x * 100) / 100), date: new Date().toISOString() };
}

export function machineLine(m: MachineInfo, end?: MachineInfo): string {
  const la = (x: MachineInfo) => x.loadavg.join(' / ');
  return `${m.cpus} × ${m.model}, Node ${m.node}, ${m.date.slice(0, 16).replace('T', ' ')} UTC; load average (1/5/15 min) ${la(m)} at the start${end ? `, ${la(end)} at the end` : ''} (the machine is shared: other work running at the same time inflates the numbers)`;
}
