// Ratings as the stores keep them: one row per rated player (persons and bot levels) and one
// change per player per rated game, written in the transaction that stores the game's end
// (server/storage/*/ratings.ts), read here for the leaderboard, a
// player's history and the ratings beside names.

import { DAY_MS, LEADERBOARD_ACTIVE_DAYS, LEADERBOARD_OPPONENTS, PROVISIONAL_GAMES, type RatedPlayer, type Rating, rateGame } from './model.ts';

/** Who was rated in a game, by seat: the player (a person's id, a bot level's `bot:<level>`) and
 * the place (1 = best; ties share one, leavers share the last). */
export interface RatedResult {
  players: string[];
  ranks: number[];
  /** The pool the game rates: turn-based games keep a rating of their own; absent: live. */
  pool?: 'turnBased';
}

/** Which rating: the live games' (every rating kept before turn-based games), or the turn-based
 * games' own, kept apart as lichess keeps correspondence chess apart. */
export type RatingPool = 'live' | 'turnBased';

/** The tables each pool is kept in (the same shape; the live pool's are the original ones). */
export const RATING_TABLES: Record<RatingPool, { ratings: string; changes: string; opponents: string }> = {
  live: { ratings: 'ratings', changes: 'rating_changes', opponents: 'rating_opponents' },
  turnBased: { ratings: 'turn_ratings', changes: 'turn_rating_changes', opponents: 'turn_rating_opponents' },
};

export const poolOf = (result: RatedResult): RatingPool => result.pool ?? 'live';

export interface PlayerRating extends Rating {
  playerId: string;
  /** Rated games played (those that moved the rating). */
  games: number;
  /** Distinct players (people and bot levels) met in those games. */
  opponents: number;
}

export interface RatingChange {
  gameId: string;
  playerId: string;
  seat: number;
  rank: number;
  before: Rating;
  after: Rating;
  at: string;
}

export interface LeaderboardRow extends PlayerRating {
  /** The player's name now (a bot level's: "expert bot"). */
  name: string;
}

/** Every read is of one pool, the live one unless asked. */
export interface RatingStore {
  /** The ratings of these players (those never rated are absent). */
  ratings(playerIds: readonly string[], pool?: RatingPool): Promise<Map<string, PlayerRating>>;
  /** Rated players, best first by the shown rating (μ − 3σ): bot levels, and the people who meet
   * the leaderboard's conditions at `now` (`leaderboardCutoffs`); deleted players left out. */
  leaderboard(limit: number, offset: number, now?: number, pool?: RatingPool): Promise<LeaderboardRow[]>;
  /** A player's rating changes, oldest first (the latest `limit`). */
  history(playerId: string, limit: number, pool?: RatingPool): Promise<RatingChange[]>;
}

/** What a rated end writes: each player's new rating and the change, from the ratings as stored
 * inside the end's transaction. */
export function ratedEnd(gameId: string, result: RatedResult, stored: (playerId: string) => Rating | undefined, at: string): { players: RatedPlayer[]; changes: RatingChange[] } {
  const players = rateGame(result.players, result.ranks, stored);
  return { players, changes: players.map((p) => ({ gameId, playerId: p.playerId, seat: p.seats[0], rank: p.rank, before: p.before, after: p.after, at })) };
}

export const isBot = (playerId: string): boolean => playerId.startsWith('bot:');

/** What a person needs at `now` to be listed: enough games not to be provisional, enough distinct
 * opponents, and a rated game since `activeSince` (an ISO time, compared as text). */
export function leaderboardCutoffs(now: number): { games: number; opponents: number; activeSince: string } {
  return { games: PROVISIONAL_GAMES, opponents: LEADERBOARD_OPPONENTS, activeSince: new Date(now - LEADERBOARD_ACTIVE_DAYS * DAY_MS).toISOString() };
}

/** The pairs of people (bots aside) in a rated game: each pair's games together in a day are
 * limited (PAIR_GAMES_PER_DAY). */
export function peoplePairs(players: readonly string[]): [string, string][] {
  const people = [...new Set(players)].filter((id) => !isBot(id)).sort();
  return people.flatMap((a, i) => people.slice(i + 1).map((b): [string, string] => [a, b]));
}

/** The start of the rolling day before a rated end at `at` (ISO): pairs' games since it count. */
export const pairWindowStart = (at: string): string => new Date(Date.parse(at) - DAY_MS).toISOString();

/** Each player's opponents in a game: every other player in it. */
export function opponentPairs(players: readonly string[]): [string, string][] {
  const ids = [...new Set(players)];
  return ids.flatMap((a) => ids.filter((b) => b !== a).map((b): [string, string] => [a, b]));
}

/** A bot level's name on the leaderboard; a person's comes from the players table. */
export function botName(playerId: string): string | null {
  return playerId.startsWith('bot:') ? `${playerId.slice(4)} bot` : null;
}

type Row = Record<string, unknown>;

/** A rating row as either database returns it. */
export function toRating(r: Row): PlayerRating {
  return { playerId: r.player_id as string, mu: Number(r.mu), sigma: Number(r.sigma), games: Number(r.games), opponents: Number(r.opponents) };
}

export function toChange(r: Row): RatingChange {
  return {
    gameId: r.game_id as string,
    playerId: r.player_id as string,
    seat: Number(r.seat),
    rank: Number(r.rank),
    before: { mu: Number(r.mu_before), sigma: Number(r.sigma_before) },
    after: { mu: Number(r.mu_after), sigma: Number(r.sigma_after) },
    at: r.at as string,
  };
}
