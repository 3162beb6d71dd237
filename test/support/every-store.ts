// The backends a store contract runs over (memory, SQLite in a throwaway file with and without the
// server's threads, a private PostgreSQL started for the file), each opened as the server opens
// it with every store it serves, and their game stores alone; with the file's `test`:
// PostgreSQL's tests are skipped where it is not installed (and fail under CI=true, see needs.ts).

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PrivatePostgres, startPostgres } from '../../support/postgres.ts';
import type { GameStore } from '../../server/games/store.ts';
import type { Backend } from '../../server/plugins/store.ts';
import { memoryBackend } from '../../server/storage/memory/backend.ts';
import { postgresBackend } from '../../server/storage/postgres/backend.ts';
import { sqliteBackend } from '../../server/storage/sqlite/backend.ts';
import { needing, POSTGRES } from './needs.ts';

export function everyStore(prefix: string) {
  const { test, before, after, skip } = needing([POSTGRES], (name) => name.startsWith('postgres'));
  let server: PrivatePostgres | undefined;
  before(async () => {
    if (!skip) server = await startPostgres();
  });
  after(() => server?.stop());
  /** A new database on the file's private PostgreSQL. */
  const postgresUrl = (name = `${prefix}_${Math.random().toString(36).slice(2, 8)}`) => server!.database(name);
  const backends: [string, () => Promise<Backend>][] = [
    ['memory', async () => memoryBackend()],
    ['sqlite', async () => sqliteBackend({ path: join(mkdtempSync(join(tmpdir(), `tessera-${prefix}-`)), 'games.db') })],
    // As the server runs it: moves appended by the writer thread, the WAL copied back by another.
    ['sqlite-threads', async () => sqliteBackend({ path: join(mkdtempSync(join(tmpdir(), `tessera-${prefix}-`)), 'games.db'), moveWrites: 'thread', walCheckpoints: 'thread' })],
    ['postgres', async () => postgresBackend({ url: await postgresUrl() })],
  ];
  const stores: [string, () => Promise<GameStore>][] = backends.map(([name, open]) => [name, async () => (await open()).games]);
  return { test, backends, stores, postgresUrl };
}
