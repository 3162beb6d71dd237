// The embedded SQLite database as the server uses it: one file (one connection, plus the writer
// and checkpoint threads of games.ts) holding the games, the players, the ratings and Web Push's rows. Every store
// here writes through the game store's transactions, in its turn; a rated game's end and its
// rating changes commit together (moves.ts).

import { SqlitePlayers } from './players.ts';
import { SqliteStore, type SqliteStoreOptions } from './games.ts';
import { SqlitePush } from './push.ts';
import { SqliteRatings } from './ratings.ts';

export interface SqliteBackend {
  readonly games: SqliteStore;
  readonly players: SqlitePlayers;
  readonly ratings: SqliteRatings;
  readonly push: SqlitePush;
  /** One instance alone: no leases. */
  readonly leases: null;
  close(): Promise<void>;
}

/** Opens (creating and migrating) the database file; StoreOpenError when it cannot be used. */
export function sqliteBackend(options: SqliteStoreOptions): SqliteBackend {
  return sqliteBackendOver(new SqliteStore(options));
}

/** The stores kept beside an open game store (tools and tests that opened it themselves). */
export function sqliteBackendOver(games: SqliteStore): SqliteBackend {
  return { games, players: new SqlitePlayers(games), ratings: new SqliteRatings(() => games.database), push: new SqlitePush(games), leases: null, close: () => games.close() };
}
