// Ratings for a free-for-all of 2 to 6 players: Weng and Lin's Bayesian approximation with the
// Plackett-Luce model (openskill). Elo and Glicko rate pairs; this rates one ordering of n players
// at once. Pure: the stores call it inside the transaction that stores a rated game's end.

import { ordinal, rate } from 'openskill';

export interface Rating {
  mu: number;
  sigma: number;
}

/** openskill's defaults (μ 25, σ 25/3, β 25/6, τ 25/300): a new player's ordinal μ − 3σ is 0. */
export const NEW_RATING: Readonly<Rating> = { mu: 25, sigma: 25 / 3 };

/** Fewer rated games than this: the rating is provisional (σ still wide). */
export const PROVISIONAL_GAMES = 5;

/** What a person needs to be on the leaderboard (bot levels, the anchors, are listed once rated):
 * a rating that is not provisional, this many distinct opponents (people or bot levels), and a
 * rated game within LEADERBOARD_ACTIVE_DAYS. One opponent played many times measures one pairing. */
export const LEADERBOARD_OPPONENTS = 3;
export const LEADERBOARD_ACTIVE_DAYS = 30;

/** Two people's rated games together that move ratings in a rolling day; later ones move none
 * (self-play and a friend's gifts measure the pair, not the play). */
export const PAIR_GAMES_PER_DAY = 3;
export const DAY_MS = 86_400_000;

/** The number people see: the ordinal μ − 3σ (a cautious estimate: 99.7 % of the belief lies
 * above it), scaled so a new player shows 1000 and a step of one μ is 40 points. */
export function displayRating(r: Rating): number {
  return Math.round(1000 + 40 * ordinal(r));
}

/** A seat that left the game (or let it expire), and when it left (ms since the epoch). */
export interface Leaver {
  seat: number;
  at: number;
}

/** Places (1 = best) from final scores: equal scores share a place, as the rules score a tie.
 * Leavers place below everyone who stayed, the first to leave last (leaving at the same moment
 * shares a place): leaving early can never beat staying longer. */
export function ranksOf(scores: readonly number[], leavers: readonly Leaver[] = []): number[] {
  const left = new Set(leavers.map((l) => l.seat));
  const stayed = scores.map((s, seat) => ({ s, seat })).filter(({ seat }) => !left.has(seat));
  const ranks = scores.map(() => 0);
  for (const { s, seat } of stayed) ranks[seat] = 1 + stayed.filter((o) => o.s > s).length;
  for (const { seat, at } of leavers) ranks[seat] = stayed.length + 1 + leavers.filter((o) => o.at > at).length;
  return ranks;
}

/** New ratings by seat for one game: `before` by seat, `ranks` by seat (1 = best). */
export function rateSeats(before: readonly Rating[], ranks: readonly number[]): Rating[] {
  const teams = before.map((r) => [{ mu: r.mu, sigma: r.sigma }]);
  return rate(teams, { rank: [...ranks] }).map(([r]) => ({ mu: r.mu, sigma: r.sigma }));
}

export interface RatedPlayer {
  playerId: string;
  /** The seats the player held: one for a person, maybe several for a bot level. */
  seats: number[];
  /** Best place among those seats. */
  rank: number;
  before: Rating;
  after: Rating;
}

/** The rating change of each player of a rated game. A bot level that sat in several seats is one
 * player: each seat is rated from its rating before the game, and the player moves by the mean of
 * its seats' changes (so two expert seats in one game count as one result, not two). */
export function rateGame(players: readonly string[], ranks: readonly number[], current: (playerId: string) => Rating | undefined): RatedPlayer[] {
  const before = players.map((id) => current(id) ?? NEW_RATING);
  const after = rateSeats(before, ranks);
  const byPlayer = new Map<string, number[]>();
  for (const [seat, id] of players.entries()) byPlayer.set(id, [...(byPlayer.get(id) ?? []), seat]);
  return [...byPlayer].map(([playerId, seats]) => {
    const prior = before[seats[0]];
    const mean = (f: (r: Rating, seat: number) => number) => seats.reduce((sum, seat) => sum + f(after[seat], seat), 0) / seats.length;
    return {
      playerId,
      seats,
      rank: Math.min(...seats.map((s) => ranks[s])),
      before: { mu: prior.mu, sigma: prior.sigma },
      after: { mu: prior.mu + mean((r) => r.mu - prior.mu), sigma: mean((r) => r.sigma) },
    };
  });
}

/** A bot level's rated identity: every `expert` seat in every rated game is the one player `bot:expert`. */
export const botPlayerId = (level: string): string => `bot:${level}`;
