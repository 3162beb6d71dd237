// Which player is in which game, as an index: one row per seat a signed-in player holds
// (holders[i].playerId, kept = 0) or that is kept for them (challenged by name at creation:
// setup.seats[i].player.id, kept = 1). "Your games" and the waiting count read a player's rows
// instead of scanning every game's JSON. Triggers on `games` keep it, so every write that
// changes the seats (a game created, a seat taken, a deleted player's seats unlinked or the seats
// kept for them released, a game removed) changes it in its own transaction, on whichever connection writes. A row whose JSON
// does not parse (damaged by hand) indexes nothing rather than failing the write.

import type { DatabaseSync } from 'node:sqlite';

// `game` is NEW in a trigger, `games` (with `games, ` as `from`) in the backfill.
const HELD = (game: string, from = '') =>
  `SELECT ${game}.id, CAST(h.key AS INTEGER), 0, json_extract(h.value, '$.playerId')
     FROM ${from}json_each(CASE WHEN json_valid(${game}.holders) THEN ${game}.holders ELSE '[]' END) h
    WHERE h.type = 'object' AND json_type(h.value, '$.playerId') = 'text'`;

const KEPT = (game: string, from = '') =>
  `SELECT ${game}.id, CAST(s.key AS INTEGER), 1, json_extract(s.value, '$.player.id')
     FROM ${from}json_each(CASE WHEN json_valid(${game}.setup) THEN ${game}.setup ELSE '{}' END, '$.seats') s
    WHERE json_type(s.value, '$.player.id') = 'text'`;

/** The migration step: the table, its triggers, and the rows of every game stored before it
 * (run again on a database put back to an earlier version, it rebuilds them). */
export function sqliteGamePlayersMigration(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS game_players (
      player_id TEXT NOT NULL,
      game_id TEXT NOT NULL,
      kept INTEGER NOT NULL,
      seat INTEGER NOT NULL,
      PRIMARY KEY (player_id, game_id, kept, seat)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS game_players_by_game ON game_players (game_id);
    CREATE TRIGGER IF NOT EXISTS game_players_created AFTER INSERT ON games BEGIN
      INSERT OR IGNORE INTO game_players (game_id, seat, kept, player_id) ${HELD('NEW')};
      INSERT OR IGNORE INTO game_players (game_id, seat, kept, player_id) ${KEPT('NEW')};
    END;
    CREATE TRIGGER IF NOT EXISTS game_players_seated AFTER UPDATE OF holders ON games BEGIN
      DELETE FROM game_players WHERE game_id = NEW.id AND kept = 0;
      INSERT OR IGNORE INTO game_players (game_id, seat, kept, player_id) ${HELD('NEW')};
    END;
    CREATE TRIGGER IF NOT EXISTS game_players_removed AFTER DELETE ON games BEGIN
      DELETE FROM game_players WHERE game_id = OLD.id;
    END;
    DELETE FROM game_players;
    INSERT OR IGNORE INTO game_players (game_id, seat, kept, player_id) ${HELD('games', 'games, ')};
    INSERT OR IGNORE INTO game_players (game_id, seat, kept, player_id) ${KEPT('games', 'games, ')};
  `);
}

/** The migration step after it: a setup written again (a deleted player's kept seats released,
 * players/store.ts `deletePlayer`) indexes its kept seats again. */
export function sqliteKeptSeatsMigration(db: DatabaseSync): void {
  db.exec(`
    CREATE TRIGGER IF NOT EXISTS game_players_kept AFTER UPDATE OF setup ON games BEGIN
      DELETE FROM game_players WHERE game_id = NEW.id AND kept = 1;
      INSERT OR IGNORE INTO game_players (game_id, seat, kept, player_id) ${KEPT('NEW')};
    END;
  `);
}

/** The games of `playerId` (a bound parameter): the seats they hold, and with `invited` those
 * kept for them too; each game once. */
export function gamesOfPlayer(invited: boolean): string {
  return `SELECT DISTINCT game_id FROM game_players WHERE player_id = ?${invited ? '' : ' AND kept = 0'}`;
}
