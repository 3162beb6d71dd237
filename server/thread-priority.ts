// The server's own threads (bot searches, SQLite writes, V8's GC helpers) run below the event loop's OS
// priority. They share the machine's cores with the main thread; at the same priority the
// scheduler makes a waking main thread wait behind a search for its share, and a thread woken by
// the loop (postMessage) may take the loop's own core at once, both showing as event-loop lag. A
// higher nice value lets the loop preempt them; they lose only the CPU the loop uses (~10 % of a
// core at 200 games). Measured: docs/BENCHMARKS.md.

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The threads' default nice value: 10 steps below the loop, about a tenth of its CPU share when
 * both want a core. */
export const WORKER_NICE = 10;

/** `nice` as given, if it is one a thread may take below the loop: an integer from 0 to 19. */
export function validNice(nice: number, option: string): number {
  if (!Number.isInteger(nice) || nice < 0 || nice > 19) throw new RangeError(`${option} must be an integer from 0 to 19, got ${nice}`);
  return nice;
}

/** Linux's kernel thread id of the calling thread (node's threadId is its own counter). */
function linuxThreadId(): number {
  return Number(readlinkSync('/proc/thread-self').split('/').pop());
}

/** Gives the calling thread (not the process) at least `nice` and returns the nice value it runs
 * at: lower than asked if the system refused (a sandbox without setpriority), null where a single
 * thread has no priority of its own (not Linux). Only ever lowers the priority: no rights needed. */
export function lowerThreadPriority(nice: number): number | null {
  if (process.platform !== 'linux') return null;
  try {
    const tid = linuxThreadId();
    try {
      if (getPriority(tid) < nice) setPriority(tid, nice);
    } catch {}
    return getPriority(tid);
  } catch {
    return null;
  }
}

/** The name node gives V8's platform threads (its libuv pool is "libuv-worker", workers
 * "WorkerThread"). */
const PLATFORM_THREAD = 'V8Worker';

/** Lowers V8's platform threads to at least `nice` and returns how many now run there (null
 * where a thread has no priority of its own). They are one pool per process, shared by every isolate: they
 * run the bot workers' garbage collection (concurrent marking, parallel scavenges) and background
 * compiles as much as the main isolate's, at the process's priority. So a search's GC escaped its
 * worker's nice value and took the event loop's core (`perf sched`: the loop waited up to 5 ms
 * behind them). The main isolate does not wait on them: its marking is finished and its
 * scavenges are joined by the main thread itself. */
export function lowerPlatformThreads(nice: number): number | null {
  if (process.platform !== 'linux') return null;
  let lowered = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== PLATFORM_THREAD) continue;
      if (getPriority(Number(tid)) < nice) setPriority(Number(tid), nice);
      lowered++;
    } catch {} // a thread that ended meanwhile, or a sandbox that refuses: they stay as they were
  }
  return lowered;
}
