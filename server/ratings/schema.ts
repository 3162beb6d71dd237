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

/** Each player's distinct opponents (a leaderboard condition), kept as games end and filled here
 * from the rating changes stored so far. */
const OPPONENTS = `
  INSERT INTO rating_opponents (player_id, opponent_id)
    SELECT DISTINCT a.player_id, b.player_id FROM rating_changes a JOIN rating_changes b ON b.game_id = a.game_id AND b.player_id <> a.player_id;
  UPDATE ratings SET opponents = (SELECT count(*) FROM rating_opponents o WHERE o.player_id = ratings.player_id);`;

export const SQLITE_RATING_OPPONENTS_MIGRATION = `
  CREATE TABLE rating_opponents (player_id TEXT NOT NULL, opponent_id TEXT NOT NULL, PRIMARY KEY (player_id, opponent_id)) STRICT;
  ALTER TABLE ratings ADD COLUMN opponents INTEGER NOT NULL DEFAULT 0;${OPPONENTS}`;

export const POSTGRES_RATING_OPPONENTS_MIGRATION = `
  CREATE TABLE rating_opponents (player_id text NOT NULL, opponent_id text NOT NULL, PRIMARY KEY (player_id, opponent_id));
  ALTER TABLE ratings ADD COLUMN opponents integer NOT NULL DEFAULT 0;${OPPONENTS}`;
