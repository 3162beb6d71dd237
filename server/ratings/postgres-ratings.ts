// Ratings in the games' PostgreSQL database: the update runs inside the store's transaction that
// stores a rated game's end (postgres-store.ts), fenced with it. Rows are created, then locked, in
// one order (by player id), so two games ending at once with players in common wait for each
// other instead of deadlocking, and neither update is lost.

import type pg from 'pg';
import type { RatedResult } from '../games/store.ts';
import { type LeaderboardRow, type PlayerRating, type RatingChange, type RatingStore, botName, ratedEnd, toChange, toRating } from './store.ts';
import { NEW_RATING } from './model.ts';

type Query = (sql: string, params?: unknown[]) => Promise<pg.QueryResult<Record<string, unknown>>>;

export async function rateEndPostgres(c: pg.ClientBase, gameId: string, result: RatedResult, at: string): Promise<void> {
  const ids = [...new Set(result.players)].sort();
  for (const id of ids)
    await c.query('INSERT INTO ratings (player_id, mu, sigma, games, updated_at) VALUES ($1, $2, $3, 0, $4) ON CONFLICT (player_id) DO NOTHING', [id, NEW_RATING.mu, NEW_RATING.sigma, at]);
  const { rows } = await c.query('SELECT player_id, mu, sigma FROM ratings WHERE player_id = ANY($1) ORDER BY player_id FOR UPDATE', [ids]);
  const stored = new Map(rows.map((r) => [r.player_id as string, { mu: Number(r.mu), sigma: Number(r.sigma) }]));
  const { players, changes } = ratedEnd(gameId, result, (id) => stored.get(id), at);
  for (const p of players) await c.query('UPDATE ratings SET mu = $2, sigma = $3, games = games + 1, updated_at = $4 WHERE player_id = $1', [p.playerId, p.after.mu, p.after.sigma, at]);
  for (const ch of changes)
    await c.query(
      `INSERT INTO rating_changes (game_id, player_id, seat, rank, mu_before, sigma_before, mu_after, sigma_after, at, seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, (SELECT coalesce(max(seq), 0) + 1 FROM rating_changes WHERE player_id = $2))`,
      [ch.gameId, ch.playerId, ch.seat, ch.rank, ch.before.mu, ch.before.sigma, ch.after.mu, ch.after.sigma, ch.at],
    );
}

export class PostgresRatings implements RatingStore {
  private readonly query: Query;

  constructor(query: Query) {
    this.query = query;
  }

  async ratings(playerIds: readonly string[]): Promise<Map<string, PlayerRating>> {
    if (playerIds.length === 0) return new Map();
    const { rows } = await this.query('SELECT player_id, mu, sigma, games FROM ratings WHERE player_id = ANY($1) AND games > 0', [playerIds]);
    return new Map(rows.map((r) => [r.player_id as string, toRating(r)]));
  }

  async leaderboard(limit: number, offset: number): Promise<LeaderboardRow[]> {
    const { rows } = await this.query(
      `SELECT r.player_id, r.mu, r.sigma, r.games, p.name FROM ratings r LEFT JOIN players p ON p.id = r.player_id
       WHERE r.games > 0 AND (r.player_id LIKE 'bot:%' OR (p.id IS NOT NULL AND p.deleted_at IS NULL)) ORDER BY r.mu - 3 * r.sigma DESC, r.player_id LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    return rows.map((r) => ({ ...toRating(r), name: botName(r.player_id as string) ?? (r.name as string) }));
  }

  async history(playerId: string, limit: number): Promise<RatingChange[]> {
    const { rows } = await this.query('SELECT * FROM rating_changes WHERE player_id = $1 ORDER BY seq DESC LIMIT $2', [playerId, limit]);
    return rows.reverse().map(toChange);
  }
}
