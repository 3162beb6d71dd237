// The rating store that lives beside a game store: in its database, written by its transactions.

import type { AccountStore } from '../accounts/store.ts';
import { MemoryStore } from '../games/memory-store.ts';
import { PostgresStore } from '../games/postgres-store.ts';
import { SqliteStore } from '../games/sqlite-store.ts';
import type { GameStore } from '../games/store.ts';
import { PostgresRatings } from './postgres-ratings.ts';
import { SqliteRatings } from './sqlite-ratings.ts';
import type { RatingStore } from './store.ts';

export function ratingsBeside(store: GameStore, accounts: Pick<AccountStore, 'player'>): RatingStore {
  if (store instanceof SqliteStore) return new SqliteRatings(() => store.database);
  if (store instanceof PostgresStore) return new PostgresRatings((sql, params) => store.query(sql, params));
  if (store instanceof MemoryStore) {
    store.ratings.nameOf = async (id) => (await accounts.player(id))?.name;
    return store.ratings;
  }
  throw new Error('no ratings beside this store');
}
