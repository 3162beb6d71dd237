// A player's record, computed from their finished games and the stored analyses of those games.
// Pure: the caller reads (a bounded number of) games and analyses, this counts them.

import type { StoredAnalysis } from '../analysis/stored.ts';
import { MISTAKE_POINTS } from '../analysis/stored.ts';
import type { GameEnd, GameSetup, SeatHolder } from '../games/store.ts';
import { MISTAKE_KINDS, type MistakeKind, mistakeKind } from './mistakes.ts';

/** What a game's analysis found of one seat's moves: all a profile keeps of it. */
export interface SeatMistakes {
  moves: number;
  lost: number;
  mistakes: number;
  byKind: Partial<Record<MistakeKind, number>>;
}

/** One finished game of the player, as listed, with its analysis by seat when one is stored. */
export interface PlayedGame {
  setup: GameSetup;
  holders: (SeatHolder | null)[];
  end: GameEnd & { scores: number[] };
  finishedAt: string;
  analysis?: SeatMistakes[];
}

export interface Results {
  games: number;
  wins: number;
  /** Mean finishing place (1 = first; tied seats share the better place); null with no games. */
  meanPlace: number | null;
}

export interface OptionResults extends Results {
  /** A rule key (tinyCity, farmers, river, innsCathedrals, abbot) or "rated". */
  option: string;
  /** "on"/"off", or the farmers rule's value. */
  value: string;
}

export interface AnalysisStats {
  /** Analysed games the numbers rest on. */
  games: number;
  /** The player's analysed moves in them. */
  moves: number;
  /** Mean expected points lost per move; null with no analysed move. */
  pointsLostPerMove: number | null;
  /** Moves losing MISTAKE_POINTS or more. */
  mistakes: number;
  byKind: Record<MistakeKind, number>;
  /** The kind seen most (the earlier in MISTAKE_KINDS on a tie); null with no mistake. */
  commonMistake: MistakeKind | null;
}

export interface PlayerStats extends Results {
  byPlayers: (Results & { players: number })[];
  byOption: OptionResults[];
  analysis: AnalysisStats;
}

/** The seat the player held in a game, or -1. */
export function seatOf(game: Pick<PlayedGame, 'holders'>, playerId: string): number {
  return game.holders.findIndex((h) => h?.playerId === playerId);
}

/** A seat's finishing place: 1 + the seats that scored more (ties share a place, as the rules score them). */
export function placeOf(scores: number[], seat: number): number {
  return 1 + scores.filter((s) => s > scores[seat]).length;
}

/** The options a game was played with, as (option, value) pairs. */
function optionsOf(setup: GameSetup): [string, string][] {
  const onOff = (on: boolean | undefined) => (on ? 'on' : 'off');
  const { rules } = setup;
  return [
    ['tinyCity', onOff(rules.tinyCity)],
    ['farmers', rules.farmers],
    ['river', onOff(rules.river)],
    ['innsCathedrals', onOff(rules.innsCathedrals)],
    ['abbot', onOff(rules.abbot)],
    ['rated', onOff(setup.rated)],
  ];
}

class Tally {
  games = 0;
  wins = 0;
  private places = 0;
  add(place: number): void {
    this.games++;
    this.places += place;
    if (place === 1) this.wins++;
  }
  results(): Results {
    return { games: this.games, wins: this.wins, meanPlace: this.games ? round(this.places / this.games) : null };
  }
}

const round = (x: number) => Math.round(x * 100) / 100;

export function playerStats(playerId: string, games: PlayedGame[]): PlayerStats {
  const all = new Tally();
  const byPlayers = new Map<number, Tally>();
  const byOption = new Map<string, Tally>();
  const tallyOf = <K>(map: Map<K, Tally>, key: K) => map.get(key) ?? map.set(key, new Tally()).get(key)!;
  for (const game of games) {
    const seat = seatOf(game, playerId);
    if (seat < 0) continue;
    const place = placeOf(game.end.scores, seat);
    all.add(place);
    tallyOf(byPlayers, game.setup.seats.length).add(place);
    for (const [option, value] of optionsOf(game.setup)) tallyOf(byOption, `${option}\u0000${value}`).add(place);
  }
  return {
    ...all.results(),
    byPlayers: [...byPlayers].sort(([a], [b]) => a - b).map(([players, t]) => ({ players, ...t.results() })),
    byOption: [...byOption].map(([key, t]) => {
      const [option, value] = key.split('\u0000');
      return { option, value, ...t.results() };
    }),
    analysis: analysisStats(playerId, games),
  };
}

/** An analysis summed by seat: small enough to keep for many games (profile.ts caches it). */
export function mistakesBySeat(analysis: StoredAnalysis): SeatMistakes[] {
  const seats: SeatMistakes[] = [];
  for (const p of analysis.positions) {
    seats[p.seat] ??= { moves: 0, lost: 0, mistakes: 0, byKind: {} };
    const seat = seats[p.seat];
    seat.moves++;
    seat.lost += p.loss;
    if (p.loss < MISTAKE_POINTS) continue;
    seat.mistakes++;
    const kind = mistakeKind(p.played, p.best);
    if (kind) seat.byKind[kind] = (seat.byKind[kind] ?? 0) + 1;
  }
  return seats;
}

/** Points lost per move and the mistakes by kind, over the player's moves in analysed games. */
export function analysisStats(playerId: string, games: PlayedGame[]): AnalysisStats {
  const byKind = Object.fromEntries(MISTAKE_KINDS.map((k) => [k, 0])) as Record<MistakeKind, number>;
  let analysed = 0;
  let moves = 0;
  let lost = 0;
  let mistakes = 0;
  for (const game of games) {
    const seat = seatOf(game, playerId);
    if (!game.analysis || seat < 0) continue;
    analysed++;
    const own = game.analysis[seat];
    if (!own) continue;
    moves += own.moves;
    lost += own.lost;
    mistakes += own.mistakes;
    for (const kind of MISTAKE_KINDS) byKind[kind] += own.byKind[kind] ?? 0;
  }
  const common = MISTAKE_KINDS.reduce<MistakeKind | null>((top, k) => (byKind[k] > 0 && (top === null || byKind[k] > byKind[top]) ? k : top), null);
  return { games: analysed, moves, pointsLostPerMove: moves ? round(lost / moves) : null, mistakes, byKind, commonMistake: common };
}
