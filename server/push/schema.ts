// Web Push's tables, as one migration step of each store (appended to their lists): the VAPID
// key pair (one row), the players' devices, and the notifications claimed (store.ts). Both may
// meet their tables already made (a schema whose later steps were unrecorded by hand, as tests do).

export const SQLITE_PUSH_MIGRATION = `
  CREATE TABLE IF NOT EXISTS vapid_keys (id INTEGER PRIMARY KEY CHECK (id = 1), public_key TEXT NOT NULL, private_key TEXT NOT NULL, created_at TEXT NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS push_devices (id TEXT PRIMARY KEY, player_id TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE, endpoint TEXT NOT NULL UNIQUE, p256dh TEXT NOT NULL, auth TEXT NOT NULL, label TEXT NOT NULL, created_at TEXT NOT NULL) STRICT;
  CREATE INDEX IF NOT EXISTS push_devices_by_player ON push_devices (player_id);
  CREATE TABLE IF NOT EXISTS push_claims (player_id TEXT NOT NULL, game_id TEXT NOT NULL, turn INTEGER NOT NULL, kind TEXT NOT NULL, claimed_at INTEGER NOT NULL, PRIMARY KEY (player_id, game_id, turn, kind)) STRICT, WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS push_claims_by_time ON push_claims (claimed_at);`;

export const POSTGRES_PUSH_MIGRATION = `
  CREATE TABLE IF NOT EXISTS vapid_keys (id integer PRIMARY KEY CHECK (id = 1), public_key text NOT NULL, private_key text NOT NULL, created_at text NOT NULL);
  CREATE TABLE IF NOT EXISTS push_devices (id text PRIMARY KEY, player_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE, endpoint text NOT NULL UNIQUE, p256dh text NOT NULL, auth text NOT NULL, label text NOT NULL, created_at text NOT NULL);
  CREATE INDEX IF NOT EXISTS push_devices_by_player ON push_devices (player_id);
  CREATE TABLE IF NOT EXISTS push_claims (player_id text NOT NULL, game_id text NOT NULL, turn integer NOT NULL, kind text NOT NULL, claimed_at bigint NOT NULL, PRIMARY KEY (player_id, game_id, turn, kind));
  CREATE INDEX IF NOT EXISTS push_claims_by_time ON push_claims (claimed_at);`;
