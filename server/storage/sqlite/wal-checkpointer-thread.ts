// The checkpoint thread's side (wal-checkpointer.ts): a connection of its own to the games' file
// that runs a PASSIVE checkpoint each time it is asked, below the event loop's priority.

import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../../thread-priority.ts';

export interface CheckpointerData {
  path: string;
  /** The OS nice value this thread takes (thread-priority.ts): copying the WAL back must not take
   * the event loop's core. */
  nice: number;
}

export type CheckpointerMessage = 'checkpoint' | 'close';
export type CheckpointAnswer = { checkpointed: number } | { failed: string };

const data = workerData as CheckpointerData;
lowerThreadPriority(data.nice);
const port = parentPort!;
const db = new DatabaseSync(data.path);
db.exec('PRAGMA busy_timeout = 1000');
port.on('message', (message: CheckpointerMessage) => {
  if (message === 'close') {
    db.close();
    port.close();
    return;
  }
  try {
    const [result] = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').all();
    port.postMessage({ checkpointed: Number(result.checkpointed) } satisfies CheckpointAnswer);
  } catch (e) {
    port.postMessage({ failed: (e as Error).message } satisfies CheckpointAnswer);
  }
});
