// The ratings' tables, as one migration step of each store (appended to their lists). A rating
// change is keyed by game and player: a game's end that came twice could not rate twice.

export const SQLITE_RATINGS_MIGRATION = `
  CREATE TABLE IF NOT EXISTS ratings (player_id TEXT PRIMARY KEY, mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL, updated_at TEXT NOT NULL) STRICT;
  CREATE TABLE IF NOT EXISTS rating_changes (game_id TEXT NOT NULL, player_id TEXT NOT NULL, seat INTEGER NOT NULL, rank INTEGER NOT NULL,
    mu_before REAL NOT NULL, sigma_before REAL NOT NULL, mu_after REAL NOT NULL, sigma_after REAL NOT NULL, at TEXT NOT NULL, PRIMARY KEY (game_id, player_id)) STRICT;
  CREATE INDEX IF NOT EXISTS rating_changes_by_player ON rating_changes (player_id, at);`;

export const POSTGRES_RATINGS_MIGRATION = `
  CREATE TABLE ratings (player_id text PRIMARY KEY, mu double precision NOT NULL, sigma double precision NOT NULL, games integer NOT NULL, updated_at text NOT NULL);
  CREATE TABLE rating_changes (game_id text NOT NULL, player_id text NOT NULL, seat integer NOT NULL, rank integer NOT NULL,
    mu_before double precision NOT NULL, sigma_before double precision NOT NULL, mu_after double precision NOT NULL, sigma_after double precision NOT NULL, at text NOT NULL, PRIMARY KEY (game_id, player_id));
  CREATE INDEX rating_changes_by_player ON rating_changes (player_id, at);`;
