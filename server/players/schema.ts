// The accounts' tables, as migration steps of each store (appended to their lists). SQLite's
// steps may meet their tables already made (a file whose user_version was set back by hand).

import type { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';
import { rekeyed } from './names.ts';

export const SQLITE_ACCOUNTS_MIGRATION = `
  CREATE TABLE IF NOT EXISTS players (id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT UNIQUE, created_at TEXT NOT NULL, deleted_at TEXT) STRICT;
  CREATE TABLE IF NOT EXISTS sessions (id_hash TEXT PRIMARY KEY, player_id TEXT NOT NULL REFERENCES players (id), expires_at INTEGER NOT NULL) STRICT;
  CREATE INDEX IF NOT EXISTS sessions_by_player ON sessions (player_id);
  CREATE TABLE IF NOT EXISTS passkeys (id TEXT PRIMARY KEY, player_id TEXT NOT NULL REFERENCES players (id), public_key TEXT NOT NULL, counter INTEGER NOT NULL, transports TEXT NOT NULL, created_at TEXT NOT NULL) STRICT;
  CREATE INDEX IF NOT EXISTS passkeys_by_player ON passkeys (player_id);
  CREATE TABLE IF NOT EXISTS webauthn_challenges (challenge TEXT PRIMARY KEY, player_id TEXT, expires_at INTEGER NOT NULL) STRICT;`;

export const POSTGRES_ACCOUNTS_MIGRATION = `
  CREATE TABLE players (id text PRIMARY KEY, name text NOT NULL, name_key text UNIQUE, created_at text NOT NULL, deleted_at text);
  CREATE TABLE sessions (id_hash text PRIMARY KEY, player_id text NOT NULL REFERENCES players (id), expires_at bigint NOT NULL);
  CREATE INDEX sessions_by_player ON sessions (player_id);
  CREATE TABLE passkeys (id text PRIMARY KEY, player_id text NOT NULL REFERENCES players (id), public_key text NOT NULL, counter bigint NOT NULL, transports jsonb NOT NULL, created_at text NOT NULL);
  CREATE INDEX passkeys_by_player ON passkeys (player_id);
  CREATE TABLE webauthn_challenges (challenge text PRIMARY KEY, player_id text, expires_at bigint NOT NULL);`;

// Idle guests are swept (server/players/sweeper.ts): each player's last sighting (ms since the
// epoch), which for players stored before this step counts from the boot that migrates them. A
// guest's default name holds no key from now on, and a deleted player is told by deleted_at.
export function sqlitePlayersSweepMigration(db: DatabaseSync): void {
  // Idempotent like the step before it: the column may be there already.
  if (!db.prepare("SELECT 1 FROM pragma_table_info('players') WHERE name = 'seen_at'").get()) {
    db.exec(`ALTER TABLE players ADD COLUMN seen_at INTEGER NOT NULL DEFAULT 0;
             UPDATE players SET seen_at = CAST(unixepoch('subsec') * 1000 AS INTEGER);`);
  }
  db.exec(`CREATE INDEX IF NOT EXISTS players_by_seen ON players (seen_at) WHERE deleted_at IS NULL;
           CREATE INDEX IF NOT EXISTS sessions_by_expiry ON sessions (expires_at);`);
}

export const POSTGRES_ACCOUNTS_SWEEP_MIGRATION = `
  ALTER TABLE players ADD COLUMN seen_at bigint NOT NULL DEFAULT 0;
  UPDATE players SET seen_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint;
  CREATE INDEX players_by_seen ON players (seen_at) WHERE deleted_at IS NULL;
  CREATE INDEX sessions_by_expiry ON sessions (expires_at);`;

// Names are keyed by their UTS #39 skeleton with case folded (names.ts) since this step: every
// stored player's key is made again, oldest first, keys freed before any is set (they are unique).
const NAME_ROWS = 'SELECT id, name FROM players WHERE deleted_at IS NULL ORDER BY created_at, id';
const FREE_KEYS = 'UPDATE players SET name_key = NULL WHERE deleted_at IS NULL';

export function sqliteNameKeysMigration(db: DatabaseSync): void {
  const players = db.prepare(NAME_ROWS).all() as { id: string; name: string }[];
  db.exec(FREE_KEYS);
  const set = db.prepare('UPDATE players SET name_key = ? WHERE id = ?');
  for (const [id, key] of rekeyed(players)) set.run(key, id);
}

export async function postgresNameKeysMigration(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query(NAME_ROWS);
  await client.query(FREE_KEYS);
  for (const [id, key] of rekeyed(rows)) await client.query('UPDATE players SET name_key = $1 WHERE id = $2', [key, id]);
}
