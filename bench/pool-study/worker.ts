// The pool study's worker: the server's own pool worker (same imports, so the same spawn cost)
// plus what the study needs to split a thread's CPU into spawning and computing: when the task
// started, and the thread's total CPU when it ended.

import { poolSearch, warmup } from '../../server/pool/worker.ts';
import type { SearchTask } from '../../server/pool/search.ts';
import type { PoolSearchResult } from '../../server/pool/worker.ts';

export { warmup };

export interface StudyResult extends PoolSearchResult {
  /** Epoch ms when this task started running in the worker. */
  startEpochMs: number;
  /** This thread's total CPU (user + system) when the task ended, ms. */
  threadCpuMs: number;
}

export default function study(task: SearchTask): StudyResult {
  const startEpochMs = performance.timeOrigin + performance.now();
  const r = poolSearch(task);
  const cpu = process.threadCpuUsage();
  return { ...r, startEpochMs, threadCpuMs: (cpu.user + cpu.system) / 1000 };
}
