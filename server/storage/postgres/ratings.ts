// Ratings in the games' PostgreSQL database: the update runs inside the store's transaction that
// stores a rated game's end (games.ts), fenced with it. Rows are created, then locked, in
// one order (by player id), so two games ending at once with players in common wait for each
// other instead of deadlocking, and neither update is lost.

import type pg from 'pg';
import type { RatedResult } from '../../ratings/store.ts';
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
  type RatingPool,
  type RatingChange,
  type RatingStore,
  ratedEnd,
  toChange,
  toRating,
} from '../../ratings/store.ts';
import { NEW_RATING, PAIR_GAMES_PER_DAY } from '../../ratings/model.ts';

type Query = (sql: string, params?: unknown[]) => Promise<pg.QueryResult<Record<string, unknown>>>;

/** Moves the ratings of a rated game's players inside the end's transaction. A game of two people
 * who have had PAIR_GAMES_PER_DAY rated games together in the day before moves no rating: counted
 * once their rating rows are locked, so two such games ending at once count each other. */
export async function rateEndPostgres(c: pg.ClientBase, gameId: string, result: RatedResult, at: string): Promise<void> {
  const t = RATING_TABLES[poolOf(result)];
  const ids = [...new Set(result.players)].sort();
  for (const id of ids)
    await c.query(`INSERT INTO ${t.ratings} (player_id, mu, sigma, games, updated_at) VALUES ($1, $2, $3, 0, $4) ON CONFLICT (player_id) DO NOTHING`, [id, NEW_RATING.mu, NEW_RATING.sigma, at]);
  const { rows } = await c.query(`SELECT player_id, mu, sigma FROM ${t.ratings} WHERE player_id = ANY($1) ORDER BY player_id FOR UPDATE`, [ids]);
  const since = pairWindowStart(at);
  for (const [a, b] of peoplePairs(ids)) {
    const together = await c.query(`SELECT count(*) AS n FROM ${t.changes} x JOIN ${t.changes} y ON y.game_id = x.game_id AND y.player_id = $2 WHERE x.player_id = $1 AND x.at > $3`, [a, b, since]);
    if (Number(together.rows[0].n) >= PAIR_GAMES_PER_DAY) return;
  }
  const stored = new Map(rows.map((r) => [r.player_id as string, { mu: Number(r.mu), sigma: Number(r.sigma) }]));
  const { players, changes } = ratedEnd(gameId, result, (id) => stored.get(id), at);
  for (const p of players) await c.query(`UPDATE ${t.ratings} SET mu = $2, sigma = $3, games = games + 1, updated_at = $4 WHERE player_id = $1`, [p.playerId, p.after.mu, p.after.sigma, at]);
  for (const ch of changes)
    await c.query(
      `INSERT INTO ${t.changes} (game_id, player_id, seat, rank, mu_before, sigma_before, mu_after, sigma_after, at, seq)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, (SELECT coalesce(max(seq), 0) + 1 FROM ${t.changes} WHERE player_id = $2))`,
      [ch.gameId, ch.playerId, ch.seat, ch.rank, ch.before.mu, ch.before.sigma, ch.after.mu, ch.after.sigma, ch.at],
    );
  const met = opponentPairs(ids);
  await c.query(`INSERT INTO ${t.opponents} (player_id, opponent_id) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING`, [met.map(([a]) => a), met.map(([, b]) => b)]);
  await c.query(`UPDATE ${t.ratings} SET opponents = (SELECT count(*) FROM ${t.opponents} o WHERE o.player_id = ${t.ratings}.player_id) WHERE player_id = ANY($1)`, [ids]);
}

export class PostgresRatings implements RatingStore {
  private readonly query: Query;

  constructor(query: Query) {
    this.query = query;
  }

  async ratings(playerIds: readonly string[], pool: RatingPool = 'live'): Promise<Map<string, PlayerRating>> {
    if (playerIds.length === 0) return new Map();
    const { rows } = await this.query(`SELECT player_id, mu, sigma, games, opponents FROM ${RATING_TABLES[pool].ratings} WHERE player_id = ANY($1) AND games > 0`, [playerIds]);
    return new Map(rows.map((r) => [r.player_id as string, toRating(r)]));
  }

  async leaderboard(limit: number, offset: number, now = Date.now(), pool: RatingPool = 'live'): Promise<LeaderboardRow[]> {
    const need = leaderboardCutoffs(now);
    const { rows } = await this.query(
      `SELECT r.player_id, r.mu, r.sigma, r.games, r.opponents, p.name FROM ${RATING_TABLES[pool].ratings} r LEFT JOIN players p ON p.id = r.player_id
       WHERE r.games > 0 AND (r.player_id LIKE 'bot:%' OR (p.id IS NOT NULL AND p.deleted_at IS NULL AND r.games >= $3 AND r.opponents >= $4 AND r.updated_at >= $5))
       ORDER BY r.mu - 3 * r.sigma DESC, r.player_id LIMIT $1 OFFSET $2`,
      [limit, offset, need.games, need.opponents, need.activeSince],
    );
    return rows.map((r) => ({ ...toRating(r), name: botName(r.player_id as string) ?? (r.name as string) }));
  }

  async history(playerId: string, limit: number, pool: RatingPool = 'live'): Promise<RatingChange[]> {
    const { rows } = await this.query(`SELECT * FROM ${RATING_TABLES[pool].changes} WHERE player_id = $1 ORDER BY seq DESC LIMIT $2`, [playerId, limit]);
    return rows.reverse().map(toChange);
  }
}
