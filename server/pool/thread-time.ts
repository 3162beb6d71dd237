// What a worker task cost its thread: wall time and this thread's CPU time, the two numbers the
// pool reports per task (run time, and compute CPU against spawn CPU).

import { threadId } from 'node:worker_threads';

export interface ThreadTime {
  /** Wall and thread-CPU milliseconds the task took inside the worker. */
  runMs: number;
  cpuMs: number;
  /** The worker thread that ran it (diagnostics; determinism tests). */
  threadId: number;
}

/** Runs `work` on this thread and measures it. */
export function timed<T>(work: () => T): { value: T } & ThreadTime {
  const startWall = performance.now();
  const startCpu = process.threadCpuUsage();
  const value = work();
  const cpu = process.threadCpuUsage(startCpu);
  return { value, runMs: performance.now() - startWall, cpuMs: (cpu.user + cpu.system) / 1000, threadId };
}
