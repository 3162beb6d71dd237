// PostgreSQL as a cluster uses it: one pool of connections holding the games, the players, the
// ratings and the games' leases (games.ts), each write one transaction of that pool; a rated
// game's end and its rating changes commit together (ratings.ts's rateEndPostgres), fenced by
// the writer's lease.

import { PostgresPlayers } from './players.ts';
import { PostgresStore, type PostgresStoreOptions } from './games.ts';
import { PostgresPush } from './push.ts';
import { PostgresRatings } from './ratings.ts';

export interface PostgresBackend {
  readonly games: PostgresStore;
  readonly players: PostgresPlayers;
  readonly ratings: PostgresRatings;
  readonly push: PostgresPush;
  /** Who owns each unfinished game: this instance's leases (the games' own store). */
  readonly leases: PostgresStore;
  close(): Promise<void>;
}

/** Connects (migrating the schema); StoreOpenError when the database cannot be used. */
export async function postgresBackend(options: PostgresStoreOptions): Promise<PostgresBackend> {
  return postgresBackendOver(await PostgresStore.connect(options));
}

/** The stores kept beside an open game store (tools and tests that opened it themselves). */
export function postgresBackendOver(games: PostgresStore): PostgresBackend {
  return {
    games,
    players: new PostgresPlayers(games),
    ratings: new PostgresRatings((sql, params) => games.query(sql, params)),
    push: new PostgresPush(games),
    leases: games,
    close: () => games.close(),
  };
}
