// The PostgreSQL schema, as ordered migrations: `schema_migrations` records those applied, each
// runs in its own transaction (PostgreSQL's DDL is transactional), under an advisory lock so
// instances starting together migrate once. Append new ones; never edit an applied one.

import type pg from 'pg';
import { POSTGRES_ACCOUNTS_MIGRATION, POSTGRES_ACCOUNTS_SWEEP_MIGRATION, postgresNameKeysMigration } from '../../players/schema.ts';
import { POSTGRES_PUSH_MIGRATION } from '../../push/schema.ts';
import { POSTGRES_RATING_OPPONENTS_MIGRATION, POSTGRES_RATINGS_MIGRATION, POSTGRES_TURN_RATINGS_MIGRATION, postgresRatingsSeqMigration } from '../../ratings/schema.ts';

/** A step is SQL, or a function given the migrating connection inside the step's transaction. */
export const MIGRATIONS: (string | ((client: pg.ClientBase) => Promise<void>))[] = [
  // 1: games, their moves, and seat names for the finished-games search, as in the SQLite store;
  // plus each unfinished game's owner: instance, fencing epoch and lease expiry (docs/OPERATIONS.md).
  `CREATE TABLE games (
     id text PRIMARY KEY,
     created_at text NOT NULL,
     setup jsonb NOT NULL,
     holders jsonb NOT NULL,
     listed boolean NOT NULL DEFAULT false,
     move_count integer NOT NULL DEFAULT 0,
     finished boolean NOT NULL DEFAULT false,
     finished_at text,
     abandoned boolean NOT NULL DEFAULT false,
     final_scores jsonb,
     rematch_id text,
     owner text,
     owner_epoch bigint NOT NULL DEFAULT 0,
     lease_until timestamptz
   );
   CREATE INDEX games_unfinished ON games (lease_until) WHERE NOT finished;
   CREATE INDEX games_finished_recent ON games (finished_at DESC, id DESC) WHERE finished;
   CREATE TABLE moves (
     game_id text NOT NULL REFERENCES games (id),
     seq integer NOT NULL,
     move jsonb NOT NULL,
     PRIMARY KEY (game_id, seq)
   );
   CREATE TABLE seat_names (
     game_id text NOT NULL REFERENCES games (id),
     seat integer NOT NULL,
     name text NOT NULL,
     PRIMARY KEY (game_id, seat)
   );
   CREATE INDEX seat_names_by_name ON seat_names (lower(name));
   CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);`,
  // 2: hints asked per seat, and finished games' analyses (docs/PROTOCOL.md §8).
  `ALTER TABLE games ADD COLUMN hints jsonb NOT NULL DEFAULT '[]'::jsonb;
   CREATE TABLE analyses (
     game_id text PRIMARY KEY REFERENCES games (id),
     created_at text NOT NULL,
     body jsonb NOT NULL
   );`,
  // 3: expiry counts from stored activity (ms since the epoch: a seat taken or a move stored, and a
  // person last seen). Games stored before it count from the boot that migrates them.
  `ALTER TABLE games ADD COLUMN last_activity_at bigint, ADD COLUMN last_person_at bigint;
   UPDATE games SET last_activity_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint, last_person_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint WHERE NOT finished;`,
  // 4: players, their sessions, passkeys and WebAuthn challenges (server/players/).
  POSTGRES_ACCOUNTS_MIGRATION,
  POSTGRES_RATINGS_MIGRATION,
  // 6: players' last sighting, for sweeping idle guests (server/players/sweeper.ts).
  POSTGRES_ACCOUNTS_SWEEP_MIGRATION,
  // 7: names keyed by their confusable skeleton (server/players/names.ts).
  postgresNameKeysMigration,
  // 8: each player's rating changes numbered in order (server/ratings/schema.ts).
  postgresRatingsSeqMigration,
  // 9: each rated player's distinct opponents, a leaderboard condition (docs/RATINGS.md).
  POSTGRES_RATING_OPPONENTS_MIGRATION,
  // 10: Web Push: the VAPID keys, the players' devices, the notifications claimed (server/push/).
  POSTGRES_PUSH_MIGRATION,
  // 11: turn-based games (server/games/deadlines.ts): their pace, the time per move when deadlines
  // apply, and the deadline itself, computed from the last activity (a move's own write moves
  // it). Rows stored before are live.
  // Run again on a database put back to an earlier version, it adds only what is missing.
  `ALTER TABLE games ADD COLUMN IF NOT EXISTS pace text NOT NULL DEFAULT 'live',
     ADD COLUMN IF NOT EXISTS move_ms bigint,
     ADD COLUMN IF NOT EXISTS deadline_marks jsonb,
     ADD COLUMN IF NOT EXISTS deadline_at bigint GENERATED ALWAYS AS (last_activity_at + move_ms) STORED;
   CREATE INDEX IF NOT EXISTS games_deadlines ON games (deadline_at) WHERE NOT finished AND move_ms IS NOT NULL;`,
  // 12: the turn-based games' own ratings (server/ratings/store.ts RATING_TABLES).
  POSTGRES_TURN_RATINGS_MIGRATION,
  // 13: which player is in which game, for a player's games without a scan (list's `playerId`):
  // the seats they hold (holders @> [{"playerId": …}]) and those kept for them (challenged by
  // name: setup->'seats' @> [{"player": {"id": …}}]). GIN indexes over the JSON the writes already
  // change, so no write has anything more to keep; built here for the rows stored before.
  `CREATE INDEX IF NOT EXISTS games_by_holder ON games USING gin (holders jsonb_path_ops);
   CREATE INDEX IF NOT EXISTS games_by_kept_seat ON games USING gin ((setup -> 'seats') jsonb_path_ops);`,
];
