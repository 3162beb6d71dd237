// The accounts' tables, as one migration step of each store (appended to their lists). SQLite's
// step may meet its tables already made (a file whose user_version was set back by hand).

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
