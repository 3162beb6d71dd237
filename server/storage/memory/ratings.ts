// Ratings in memory, beside a MemoryStore (tests): the same contract with no database.

import type { RatedResult } from '../../ratings/store.ts';
import { PAIR_GAMES_PER_DAY } from '../../ratings/model.ts';
import {
  botName,
  isBot,
  type LeaderboardRow,
  leaderboardCutoffs,
  opponentPairs,
  type PlayerRating,
  pairWindowStart,
  peoplePairs,
  poolOf,
  type RatingChange,
  type RatingPool,
  type RatingStore,
  ratedEnd,
} from '../../ratings/store.ts';

export class MemoryRatings implements RatingStore {
  /** The turn-based games' own pool (RATING_TABLES), the same store again. */
  private turnBased: MemoryRatings | null = null;
  private readonly rows = new Map<string, PlayerRating & { updatedAt: string }>();
  private readonly changes: RatingChange[] = [];
  private readonly met = new Map<string, Set<string>>();
  /** A person's name now, or undefined for a deleted one (the players beside the store). */
  nameOf: (playerId: string) => Promise<string | undefined> = async () => undefined;

  private pool(pool: RatingPool): MemoryRatings {
    if (pool === 'live') return this;
    this.turnBased ??= new MemoryRatings();
    this.turnBased.nameOf = this.nameOf;
    return this.turnBased;
  }

  /** Called by the MemoryStore as it stores a rated game's end. */
  rateEnd(gameId: string, result: RatedResult, at: string): void {
    const pool = poolOf(result);
    if (pool !== 'live') return this.pool(pool).rateEnd(gameId, { players: result.players, ranks: result.ranks }, at);
    if (this.changes.some((c) => c.gameId === gameId)) throw new Error(`game ${gameId} is rated already`);
    if (peoplePairs(result.players).some(([a, b]) => this.gamesTogether(a, b, pairWindowStart(at)) >= PAIR_GAMES_PER_DAY)) return;
    const { players, changes } = ratedEnd(gameId, result, (id) => this.rows.get(id), at);
    for (const [a, b] of opponentPairs(result.players)) this.met.set(a, (this.met.get(a) ?? new Set()).add(b));
    for (const p of players) {
      const games = (this.rows.get(p.playerId)?.games ?? 0) + 1;
      this.rows.set(p.playerId, { playerId: p.playerId, ...p.after, games, opponents: this.met.get(p.playerId)!.size, updatedAt: at });
    }
    this.changes.push(...changes);
  }

  private gamesTogether(a: string, b: string, since: string): number {
    const ofB = new Set(this.changes.filter((c) => c.playerId === b).map((c) => c.gameId));
    return this.changes.filter((c) => c.playerId === a && c.at > since && ofB.has(c.gameId)).length;
  }

  async ratings(playerIds: readonly string[], pool: RatingPool = 'live'): Promise<Map<string, PlayerRating>> {
    if (pool !== 'live') return this.pool(pool).ratings(playerIds);
    return new Map(playerIds.flatMap((id) => (this.rows.has(id) ? [[id, this.rating(id)] as const] : [])));
  }

  private rating(id: string): PlayerRating {
    const { updatedAt: _, ...r } = this.rows.get(id)!;
    return r;
  }

  async leaderboard(limit: number, offset: number, now = Date.now(), pool: RatingPool = 'live'): Promise<LeaderboardRow[]> {
    if (pool !== 'live') return this.pool(pool).leaderboard(limit, offset, now);
    const need = leaderboardCutoffs(now);
    const listed = [...this.rows.values()].filter((r) => isBot(r.playerId) || (r.games >= need.games && r.opponents >= need.opponents && r.updatedAt >= need.activeSince));
    const named = await Promise.all(listed.map(async (r) => ({ ...this.rating(r.playerId), name: botName(r.playerId) ?? (await this.nameOf(r.playerId)) })));
    return named
      .filter((r): r is LeaderboardRow => r.name !== undefined)
      .sort((a, b) => b.mu - 3 * b.sigma - (a.mu - 3 * a.sigma) || (a.playerId < b.playerId ? -1 : 1))
      .slice(offset, offset + limit);
  }

  async history(playerId: string, limit: number, pool: RatingPool = 'live'): Promise<RatingChange[]> {
    if (pool !== 'live') return this.pool(pool).history(playerId, limit);
    return this.changes.filter((c) => c.playerId === playerId).slice(-limit);
  }
}
