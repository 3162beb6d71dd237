// Ratings in memory, beside a MemoryStore (tests): the same contract with no database.

import type { RatedResult } from '../games/store.ts';
import { type LeaderboardRow, type PlayerRating, type RatingChange, type RatingStore, botName, ratedEnd } from './store.ts';

export class MemoryRatings implements RatingStore {
  private readonly rows = new Map<string, PlayerRating>();
  private readonly changes: RatingChange[] = [];
  /** A person's name now, or undefined for a deleted one (the accounts beside the store). */
  nameOf: (playerId: string) => Promise<string | undefined> = async () => undefined;

  /** Called by the MemoryStore as it stores a rated game's end. */
  rateEnd(gameId: string, result: RatedResult, at: string): void {
    if (this.changes.some((c) => c.gameId === gameId)) throw new Error(`game ${gameId} is rated already`);
    const { players, changes } = ratedEnd(gameId, result, (id) => this.rows.get(id), at);
    for (const p of players) this.rows.set(p.playerId, { playerId: p.playerId, ...p.after, games: (this.rows.get(p.playerId)?.games ?? 0) + 1 });
    this.changes.push(...changes);
  }

  async ratings(playerIds: readonly string[]): Promise<Map<string, PlayerRating>> {
    return new Map(playerIds.flatMap((id) => (this.rows.has(id) ? [[id, { ...this.rows.get(id)! }] as const] : [])));
  }

  async leaderboard(limit: number, offset: number): Promise<LeaderboardRow[]> {
    const named = await Promise.all([...this.rows.values()].map(async (r) => ({ ...r, name: botName(r.playerId) ?? (await this.nameOf(r.playerId)) })));
    return named
      .filter((r): r is LeaderboardRow => r.name !== undefined)
      .sort((a, b) => b.mu - 3 * b.sigma - (a.mu - 3 * a.sigma) || (a.playerId < b.playerId ? -1 : 1))
      .slice(offset, offset + limit);
  }

  async history(playerId: string, limit: number): Promise<RatingChange[]> {
    return this.changes.filter((c) => c.playerId === playerId).slice(-limit);
  }
}
