// Ratings in the games' SQLite database: the update runs inside the store's transaction that
// stores a rated game's end (games.ts), the reads beside it.

import type { DatabaseSync } from 'node:sqlite';
import type { RatedResult } from '../../ratings/store.ts';
import { PAIR_GAMES_PER_DAY } from '../../ratings/model.ts';
import {
  botName,
  type LeaderboardRow,
  leaderboardCutoffs,
  opponentPairs,
  type PlayerRating,
  pairWindowStart,
  peoplePairs,
  poolOf,
  RATING_TABLES,
  type RatingChange,
  type RatingPool,
  type RatingStore,
  ratedEnd,
  toChange,
  toRating,
} from '../../ratings/store.ts';

type Row = Record<string, unknown>;

/** Moves the ratings of a rated game's players; the caller's transaction commits it with the end.
 * A game of two people who have had PAIR_GAMES_PER_DAY rated games together in the day before
 * moves no rating. */
export function rateEndSqlite(db: DatabaseSync, gameId: string, result: RatedResult, at: string): void {
  const t = RATING_TABLES[poolOf(result)];
  const together = db.prepare(`SELECT count(*) AS n FROM ${t.changes} a JOIN ${t.changes} b ON b.game_id = a.game_id AND b.player_id = ? WHERE a.player_id = ? AND a.at > ?`);
  const since = pairWindowStart(at);
  if (peoplePairs(result.players).some(([a, b]) => Number((together.get(b, a, since) as Row).n) >= PAIR_GAMES_PER_DAY)) return;
  const ids = [...new Set(result.players)];
  const rows = db.prepare(`SELECT player_id, mu, sigma FROM ${t.ratings} WHERE player_id IN (${ids.map(() => '?').join(', ')})`).all(...ids) as Row[];
  const stored = new Map(rows.map((r) => [r.player_id as string, { mu: r.mu as number, sigma: r.sigma as number }]));
  const { players, changes } = ratedEnd(gameId, result, (id) => stored.get(id), at);
  const upsert = db.prepare(
    `INSERT INTO ${t.ratings} (player_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, 1, ?) ON CONFLICT (player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = games + 1, updated_at = excluded.updated_at`,
  );
  for (const p of players) upsert.run(p.playerId, p.after.mu, p.after.sigma, at);
  const insert = db.prepare(
    `INSERT INTO ${t.changes} (game_id, player_id, seat, rank, mu_before, sigma_before, mu_after, sigma_after, at, seq)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, (SELECT coalesce(max(seq), 0) + 1 FROM ${t.changes} WHERE player_id = ?2))`,
  );
  for (const c of changes) insert.run(c.gameId, c.playerId, c.seat, c.rank, c.before.mu, c.before.sigma, c.after.mu, c.after.sigma, c.at);
  const met = db.prepare(`INSERT OR IGNORE INTO ${t.opponents} (player_id, opponent_id) VALUES (?, ?)`);
  for (const [a, b] of opponentPairs(ids)) met.run(a, b);
  db.prepare(`UPDATE ${t.ratings} SET opponents = (SELECT count(*) FROM ${t.opponents} o WHERE o.player_id = ${t.ratings}.player_id) WHERE player_id IN (${ids.map(() => '?').join(', ')})`).run(
    ...ids,
  );
}

export class SqliteRatings implements RatingStore {
  private readonly db: () => DatabaseSync;

  constructor(db: () => DatabaseSync) {
    this.db = db;
  }

  async ratings(playerIds: readonly string[], pool: RatingPool = 'live'): Promise<Map<string, PlayerRating>> {
    if (playerIds.length === 0) return new Map();
    const rows = this.db()
      .prepare(`SELECT player_id, mu, sigma, games, opponents FROM ${RATING_TABLES[pool].ratings} WHERE player_id IN (${playerIds.map(() => '?').join(', ')})`)
      .all(...playerIds) as Row[];
    return new Map(rows.map((r) => [r.player_id as string, toRating(r)]));
  }

  async leaderboard(limit: number, offset: number, now = Date.now(), pool: RatingPool = 'live'): Promise<LeaderboardRow[]> {
    const need = leaderboardCutoffs(now);
    const rows = this.db()
      .prepare(
        `SELECT r.player_id, r.mu, r.sigma, r.games, r.opponents, p.name FROM ${RATING_TABLES[pool].ratings} r LEFT JOIN players p ON p.id = r.player_id
         WHERE r.player_id LIKE 'bot:%' OR (p.id IS NOT NULL AND p.deleted_at IS NULL AND r.games >= ? AND r.opponents >= ? AND r.updated_at >= ?)
         ORDER BY r.mu - 3 * r.sigma DESC, r.player_id LIMIT ? OFFSET ?`,
      )
      .all(need.games, need.opponents, need.activeSince, limit, offset) as Row[];
    return rows.map((r) => ({ ...toRating(r), name: botName(r.player_id as string) ?? (r.name as string) }));
  }

  async history(playerId: string, limit: number, pool: RatingPool = 'live'): Promise<RatingChange[]> {
    const rows = this.db().prepare(`SELECT * FROM ${RATING_TABLES[pool].changes} WHERE player_id = ? ORDER BY seq DESC LIMIT ?`).all(playerId, limit) as Row[];
    return rows.reverse().map(toChange);
  }
}
