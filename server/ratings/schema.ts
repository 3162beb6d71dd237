import type { DatabaseSync } from 'node:sqlite';
import type pg from 'pg';

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

// A player's changes in the order they were made: `seq` counts each player's rated games (1, 2,
// …), so two ends stored in the same millisecond keep their order (`at` alone cannot tell them
// apart). Taken inside the end's transaction, under the player's rating row lock on PostgreSQL.
// Changes stored before it are numbered in the order they were written (SQLite's rowid); on
// PostgreSQL, which kept no such order, by time and game id. A step run again finds its column
// and changes nothing.

const SEQ_INDEX = 'CREATE UNIQUE INDEX rating_changes_by_player_seq ON rating_changes (player_id, seq); DROP INDEX rating_changes_by_player;';

export function sqliteRatingsSeqMigration(db: DatabaseSync): void {
  if (db.prepare("SELECT 1 FROM pragma_table_info('rating_changes') WHERE name = 'seq'").get()) return;
  db.exec(`ALTER TABLE rating_changes ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
    UPDATE rating_changes SET seq = numbered.n
      FROM (SELECT rowid AS r, row_number() OVER (PARTITION BY player_id ORDER BY rowid) AS n FROM rating_changes) AS numbered
      WHERE rating_changes.rowid = numbered.r;
    ${SEQ_INDEX}`);
}

export async function postgresRatingsSeqMigration(client: pg.ClientBase): Promise<void> {
  if ((await client.query("SELECT 1 FROM information_schema.columns WHERE table_name = 'rating_changes' AND column_name = 'seq'")).rowCount) return;
  await client.query(`ALTER TABLE rating_changes ADD COLUMN seq integer NOT NULL DEFAULT 0;
    UPDATE rating_changes c SET seq = numbered.n
      FROM (SELECT game_id, player_id, row_number() OVER (PARTITION BY player_id ORDER BY at, game_id) AS n FROM rating_changes) numbered
      WHERE c.game_id = numbered.game_id AND c.player_id = numbered.player_id;
    ${SEQ_INDEX}`);
}

/** Each player's distinct opponents (a leaderboard condition), kept as games end and filled here
 * from the rating changes stored so far. Like the steps before it, it may run again (a file whose
 * user_version was set back): it changes nothing then. */
const OPPONENTS = `
  INSERT INTO rating_opponents (player_id, opponent_id)
    SELECT DISTINCT a.player_id, b.player_id FROM rating_changes a JOIN rating_changes b ON b.game_id = a.game_id AND b.player_id <> a.player_id WHERE true
    ON CONFLICT DO NOTHING;
  UPDATE ratings SET opponents = (SELECT count(*) FROM rating_opponents o WHERE o.player_id = ratings.player_id);`;

export function sqliteRatingOpponentsMigration(db: DatabaseSync): void {
  db.exec('CREATE TABLE IF NOT EXISTS rating_opponents (player_id TEXT NOT NULL, opponent_id TEXT NOT NULL, PRIMARY KEY (player_id, opponent_id)) STRICT;');
  if (!db.prepare("SELECT 1 FROM pragma_table_info('ratings') WHERE name = 'opponents'").get()) db.exec('ALTER TABLE ratings ADD COLUMN opponents INTEGER NOT NULL DEFAULT 0;');
  db.exec(OPPONENTS);
}

export const POSTGRES_RATING_OPPONENTS_MIGRATION = `
  CREATE TABLE IF NOT EXISTS rating_opponents (player_id text NOT NULL, opponent_id text NOT NULL, PRIMARY KEY (player_id, opponent_id));
  ALTER TABLE ratings ADD COLUMN IF NOT EXISTS opponents integer NOT NULL DEFAULT 0;${OPPONENTS}`;

/** The turn-based games' own pool (RATING_TABLES.turnBased): the live pool's tables again, as they
 * stand after the steps above, under other names. A step run again changes nothing. */
const turnTables = (real: string, int: string, text: string, strict: string) => `
  CREATE TABLE IF NOT EXISTS turn_ratings (player_id ${text} PRIMARY KEY, mu ${real} NOT NULL, sigma ${real} NOT NULL, games ${int} NOT NULL, updated_at ${text} NOT NULL, opponents ${int} NOT NULL DEFAULT 0)${strict};
  CREATE TABLE IF NOT EXISTS turn_rating_changes (game_id ${text} NOT NULL, player_id ${text} NOT NULL, seat ${int} NOT NULL, rank ${int} NOT NULL,
    mu_before ${real} NOT NULL, sigma_before ${real} NOT NULL, mu_after ${real} NOT NULL, sigma_after ${real} NOT NULL, at ${text} NOT NULL, seq ${int} NOT NULL DEFAULT 0, PRIMARY KEY (game_id, player_id))${strict};
  CREATE UNIQUE INDEX IF NOT EXISTS turn_rating_changes_by_player_seq ON turn_rating_changes (player_id, seq);
  CREATE TABLE IF NOT EXISTS turn_rating_opponents (player_id ${text} NOT NULL, opponent_id ${text} NOT NULL, PRIMARY KEY (player_id, opponent_id))${strict};`;

export const SQLITE_TURN_RATINGS_MIGRATION = turnTables('REAL', 'INTEGER', 'TEXT', ' STRICT');
export const POSTGRES_TURN_RATINGS_MIGRATION = turnTables('double precision', 'integer', 'text', '');
