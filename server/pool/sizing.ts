// How many bot workers: the setting if given, else usable cores − reserved cores, at least 1.
// Usable cores = min(os.availableParallelism(), the container CPU quota) so a container limited
// to 2 CPUs on a 64-core host does not start 63 threads that only grow queue wait.

import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { PoolSizing } from '../wire/pool.ts';

export type { PoolSizing };

export interface CpuQuota {
  /** Quota in CPUs (may be fractional), null when unlimited or unknown. */
  cpus: number | null;
  source: string;
}

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

/** The cgroup this process is in, from /proc/self/cgroup ("0::/path" for v2). */
function ownCgroupPaths(procSelfCgroup: string | null): { v2: string | null; v1cpu: string | null } {
  let v2: string | null = null;
  let v1cpu: string | null = null;
  for (const line of (procSelfCgroup ?? '').split('\n')) {
    const [id, controllers, path] = line.split(':');
    if (path === undefined) continue;
    if (id === '0' && controllers === '') v2 = path;
    else if (controllers.split(',').includes('cpu')) v1cpu = path;
  }
  return { v2, v1cpu };
}

/** Reads the CPU quota under `root`: cgroup v2 `cpu.max`, else v1 cfs quota/period. Looks in the
 * process's own cgroup first, then at the root (inside a container the two usually coincide). */
export function readCpuQuota(root: string, procSelfCgroup: string | null = read('/proc/self/cgroup')): CpuQuota {
  const own = ownCgroupPaths(procSelfCgroup);
  const v2Dirs = [...new Set([own.v2 ? join(root, own.v2) : null, root].filter((d): d is string => d !== null))];
  for (const dir of v2Dirs) {
    const max = read(join(dir, 'cpu.max'));
    if (max === null) continue;
    const [quota, period] = max.split(/\s+/);
    const source = join(dir, 'cpu.max');
    if (quota === 'max') return { cpus: null, source: `${source} (max)` };
    const q = Number(quota);
    const p = Number(period ?? 100000);
    if (q > 0 && p > 0) return { cpus: q / p, source };
  }
  const v1Dirs = [own.v1cpu ? join(root, 'cpu', own.v1cpu) : null, join(root, 'cpu'), join(root, 'cpu,cpuacct')].filter((d): d is string => d !== null);
  for (const dir of [...new Set(v1Dirs)]) {
    const quota = read(join(dir, 'cpu.cfs_quota_us'));
    const period = read(join(dir, 'cpu.cfs_period_us'));
    if (quota === null || period === null) continue;
    const source = join(dir, 'cpu.cfs_quota_us');
    const q = Number(quota);
    const p = Number(period);
    if (q > 0 && p > 0) return { cpus: q / p, source };
    return { cpus: null, source: `${source} (${quota})` };
  }
  return { cpus: null, source: 'no cgroup cpu limit found' };
}

export interface SizingInput {
  setting: number | null;
  reservedCores: number;
  cgroupRoot: string;
  availableParallelism?: number;
  procSelfCgroup?: string | null;
}

export function decidePoolSize(input: SizingInput): PoolSizing {
  const parallelism = input.availableParallelism ?? availableParallelism();
  const quota = readCpuQuota(input.cgroupRoot, input.procSelfCgroup === undefined ? read('/proc/self/cgroup') : input.procSelfCgroup);
  // A fractional quota rounds down, but never below one usable core.
  const usable = Math.max(1, Math.min(parallelism, quota.cpus === null ? Infinity : Math.floor(quota.cpus)));
  const base = { availableParallelism: parallelism, quotaCpus: quota.cpus, quotaSource: quota.source, usableCores: usable, reservedCores: input.reservedCores, setting: input.setting };
  if (input.setting !== null) return { ...base, workers: input.setting, reason: 'TESSERA_BOT_WORKERS setting' };
  const workers = Math.max(1, usable - input.reservedCores);
  return { ...base, workers, reason: `usable cores ${usable} − reserved ${input.reservedCores}${workers === 1 && usable - input.reservedCores < 1 ? ', at least 1' : ''}` };
}
