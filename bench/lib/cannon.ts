// autocannon through its programmatic API, in this process or in a child process (so the load
// generator's own CPU does not run on the event loop being measured). Loopback only, bounded.

import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { benchFile } from './paths.ts';

export interface CannonOptions {
  title: string;
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /** Requests per second over all connections; omit for as fast as possible. */
  overallRate?: number;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Paths cycled through by each connection (autocannon `requests`). */
  paths?: string[];
}

export interface CannonResult {
  title: string;
  url: string;
  connections: number;
  duration: number;
  overallRate: number | null;
  requestsPerSec: number;
  total: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]') throw new Error(`benchmarks target loopback only, not ${host}`);
}

export async function runCannon(o: CannonOptions): Promise<CannonResult> {
  assertLoopback(o.url);
  const duration = Math.max(1, Math.min(600, o.duration));
  const r = await autocannon({
    url: o.url,
    title: o.title,
    connections: o.connections,
    duration,
    timeout: 10,
    ...(o.overallRate ? { overallRate: o.overallRate } : {}),
    ...(o.paths
      ? { requests: o.paths.map((path) => ({ method: o.method ?? 'GET', path, ...(o.body ? { body: o.body } : {}), ...(o.headers ? { headers: o.headers } : {}) })) }
      : { method: o.method ?? 'GET', ...(o.body ? { body: o.body } : {}), ...(o.headers ? { headers: o.headers } : {}) }),
  });
  const total = r.requests.total ?? r['2xx'] + r.non2xx;
  return {
    title: o.title,
    url: o.url,
    connections: o.connections,
    duration,
    overallRate: o.overallRate ?? null,
    requestsPerSec: Math.round(r.requests.average),
    total,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: Math.round(r.latency.mean * 100) / 100 },
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
  };
}

/** The same, in a child process; resolves when it is done (killed after duration + 20 s). */
export function runCannonChild(o: CannonOptions): Promise<CannonResult> {
  assertLoopback(o.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [benchFile('lib/cannon-child.ts'), JSON.stringify(o)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const kill = setTimeout(() => child.kill('SIGKILL'), (o.duration + 20) * 1000);
    child.on('exit', (code) => {
      clearTimeout(kill);
      try {
        if (code !== 0) throw new Error(`autocannon child exited with ${code}`);
        resolve(JSON.parse(out) as CannonResult);
      } catch (e) {
        reject(e);
      }
    });
  });
}
