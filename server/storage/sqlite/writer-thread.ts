// The writer thread's side (writer.ts): a connection of its own to the games' file that
// appends moves. The requests that arrive while it commits are committed together in the next
// transaction (a group commit), each inside a savepoint of its own, so that one refused request
// (a game that does not exist) fails alone. Each answer leaves only after its commit.

import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { type AppendRequest, appendMoves, appendStatements, connectionPragmas, type SqliteFailure } from './moves.ts';
import { lowerThreadPriority } from '../../thread-priority.ts';

export interface WriterData {
  path: string;
  durability: 'normal' | 'full';
  /** The store's checkpoint thread copies the WAL back: this connection must never do it. */
  checkpointsElsewhere: boolean;
  /** The OS nice value this thread takes (thread-priority.ts): woken by each move, it must not
   * take the event loop's core. */
  nice: number;
}

export interface WriteRequest extends AppendRequest {
  id: number;
}

/** One request's outcome; a batch's are answered in one message. */
export interface WriteOutcome {
  id: number;
  error?: { message: string; code?: string; errcode?: number };
}

export type WriterMessage = WriteRequest | 'close';

const data = workerData as WriterData;
lowerThreadPriority(data.nice);
const port = parentPort!;
const db = new DatabaseSync(data.path);
db.exec(connectionPragmas(data.durability));
if (data.checkpointsElsewhere) db.exec('PRAGMA wal_autocheckpoint = 0');
const statements = appendStatements(db);

const failure = (e: unknown): WriteOutcome['error'] => ({ message: (e as Error).message, code: (e as SqliteFailure).code, errcode: (e as SqliteFailure).errcode });

let queue: WriteRequest[] = [];

/** Commits what is queued, in one transaction, and answers every request in it. */
function commitQueued(): void {
  const batch = queue;
  queue = [];
  if (batch.length === 0) return;
  const outcomes = new Map<number, WriteOutcome>();
  let applied: WriteRequest[] = [];
  const fail = (requests: WriteRequest[], e: unknown) => {
    for (const r of requests) outcomes.set(r.id, { id: r.id, error: failure(e) });
  };
  try {
    db.exec('BEGIN IMMEDIATE');
    for (const r of batch) {
      try {
        db.exec('SAVEPOINT request');
        appendMoves(db, statements, r);
        db.exec('RELEASE request');
        applied.push(r);
      } catch (e) {
        if (!db.isTransaction) {
          // SQLite rolled the whole transaction back by itself (a full disk): what it held is lost too.
          fail([...applied, r], e);
          applied = [];
          db.exec('BEGIN IMMEDIATE');
          continue;
        }
        db.exec('ROLLBACK TO request');
        db.exec('RELEASE request');
        fail([r], e);
      }
    }
    db.exec('COMMIT');
    for (const r of applied) outcomes.set(r.id, { id: r.id });
  } catch (e) {
    if (db.isTransaction) db.exec('ROLLBACK');
    fail(
      batch.filter((r) => !outcomes.has(r.id)),
      e,
    );
  }
  port.postMessage([...outcomes.values()]);
}

port.on('message', (message: WriterMessage) => {
  if (message === 'close') {
    if (queue.length > 0) commitQueued();
    db.close();
    port.close();
    return;
  }
  // Messages that arrived together are delivered before this runs: they share the commit.
  if (queue.length === 0) setImmediate(commitQueued);
  queue.push(message);
});
