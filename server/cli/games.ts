// `npm run --silent games -- damaged | export ID | remove ID [--force]`: an operator's tool for
// stored games the server set aside as damaged (they do not parse or replay; docs/OPERATIONS.md).
// It works on the server's database: PostgreSQL when TESSERA_DATABASE_URL is set, otherwise
// TESSERA_DATA_DIR/tessera.db (or `--db FILE`). Safe while the server runs. Output is JSON lines.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { replayRecord } from '../../bot-engine/record.ts';
import { damageOf } from '../games/integrity.ts';
import { DELETED_NAME } from '../players/names.ts';
import type { PlayerStore } from '../players/store.ts';
import { postgresBackend } from '../storage/postgres/backend.ts';
import { recordOf } from '../games/records.ts';
import { sqliteBackend } from '../storage/sqlite/backend.ts';
import { DamagedGameError, type GameStore, type StoreMaintenance } from '../games/store.ts';

const USAGE = 'usage: npm run --silent games -- damaged | export ID | remove ID [--force] | delete-player PLAYER_ID   [--db FILE]\n';

type Store = GameStore & StoreMaintenance;

/** The database's stores a command uses. */
interface Database {
  games: Store;
  players: PlayerStore;
  close(): Promise<void>;
}

/** Why a stored game is damaged (the reason the server logs), or null; undefined: no such game. */
async function damage(store: Store, id: string): Promise<string | null | undefined> {
  let stored: Awaited<ReturnType<Store['get']>>;
  try {
    stored = await store.get(id);
  } catch (e) {
    if (e instanceof DamagedGameError) return e.reason;
    throw e;
  }
  if (!stored) return undefined;
  try {
    const problem = damageOf(stored);
    if (problem) throw new Error(problem);
    replayRecord(recordOf(stored));
    return null;
  } catch (e) {
    return `does not replay: ${(e as Error).message}`;
  }
}

async function open(argv: string[]): Promise<Database> {
  const url = process.env.TESSERA_DATABASE_URL;
  const at = argv.indexOf('--db');
  if (url && at < 0) return postgresBackend({ url });
  const path = at >= 0 ? argv[at + 1] : join(process.env.TESSERA_DATA_DIR || 'data', 'tessera.db');
  // The store would create an empty database: a wrong path must say so instead.
  if (!path || !existsSync(path)) throw new Error(`no database at ${path ?? '(missing after --db)'}: set TESSERA_DATA_DIR or --db FILE (or TESSERA_DATABASE_URL)`);
  return sqliteBackend({ path });
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

async function run({ games: store, players }: Database, [command, id]: string[], force: boolean): Promise<number> {
  if (command === 'damaged') {
    for (const each of await store.ids()) {
      const reason = await damage(store, each);
      if (reason) print({ id: each, damaged: reason });
    }
    return 0;
  }
  if (command === 'delete-player' && id) {
    // The same deletion as the player's own DELETE /api/me, in one transaction.
    const deleted = await players.deletePlayer(id, DELETED_NAME, new Date().toISOString());
    print(deleted ? { deletedPlayer: id } : { error: `no player ${id}` });
    return deleted ? 0 : 1;
  }
  if ((command !== 'export' && command !== 'remove') || !id) {
    process.stderr.write(USAGE);
    return 2;
  }
  const reason = await damage(store, id);
  if (reason === undefined) {
    print({ error: `no game ${id}` });
    return 1;
  }
  if (command === 'export') {
    print({ id, damaged: reason, stored: await store.raw(id) });
    return 0;
  }
  if (reason === null && !force) {
    print({ error: `game ${id} is not damaged: it is removed only with --force` });
    return 1;
  }
  await store.remove(id);
  print({ removed: id, damaged: reason });
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const force = argv.includes('--force');
  const at = argv.indexOf('--db');
  const words = argv.filter((a, i) => a !== '--force' && (at < 0 || (i !== at && i !== at + 1)));
  if (words.length === 0) {
    process.stderr.write(USAGE);
    return 2;
  }
  let database: Database;
  try {
    database = await open(argv);
  } catch (e) {
    print({ error: (e as Error).message });
    return 1;
  }
  try {
    return await run(database, words, force);
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
