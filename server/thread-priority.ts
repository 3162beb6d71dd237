// The server's own threads (bot searches, SQLite writes) run below the event loop's OS
// priority. They share the machine's cores with the main thread; at the same priority the
// scheduler makes a waking main thread wait behind a search for its share, and a thread woken by
// the loop (postMessage) may take the loop's own core at once, both showing as event-loop lag. A
// higher nice value lets the loop preempt them; they lose only the CPU the loop uses (~10 % of a
// core at 200 games). Measured: docs/BENCHMARKS.md.

import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The threads' default nice value: 10 steps below the loop, about a tenth of its CPU share when
 * both want a core. */
export const WORKER_NICE = 10;

/** `nice` as given, if it is one a thread may take below the loop: an integer from 0 to 19. */
export function validNice(nice: number, option: string): number {
  if (!Number.isInteger(nice) || nice < 0 || nice > 19) throw new RangeError(`${option} must be an integer from 0 to 19, got ${nice}`);
  return nice;
}

/** A thread's module beside the module that starts it (`from`: its import.meta.url): the
 * TypeScript source in tests, the build in dist/. */
export function threadModule(from: string, name: string): URL {
  return new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from);
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
  let tid: number;
  try {
    tid = linuxThreadId();
  } catch {
    return null;
  }
  try {
    if (getPriority(tid) < nice) setPriority(tid, nice);
  } catch {} // refused: it keeps the value returned below
  return getPriority(tid);
}
