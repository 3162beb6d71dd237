// The account store that lives beside a game store: in its database and through its transactions.

import { PostgresStore } from '../games/postgres-store.ts';
import { SqliteStore } from '../games/sqlite-store.ts';
import type { GameStore } from '../games/store.ts';
import { MemoryAccounts } from './memory-accounts.ts';
import { PostgresAccounts } from './postgres-accounts.ts';
import { SqliteAccounts } from './sqlite-accounts.ts';
import type { AccountStore } from './store.ts';

export function accountsBeside(store: GameStore): AccountStore {
  if (store instanceof SqliteStore) return new SqliteAccounts(store);
  if (store instanceof PostgresStore) return new PostgresAccounts(store);
  return new MemoryAccounts(store);
}
