// Paying a scoring: points into the scorers' totals and their split by kind, and the event a
// player sees. The core's scoring and the expansions' (the Abbot's taking back) both pay here.

import { KIND_MONASTERY } from './tiles.ts';
import { KIND_GARDEN, MOD_CATHEDRAL, MOD_INN } from './expansion-tiles.ts';
import { type GameState, H_BY_KIND, H_SCORE, MAX_SEATS } from './state.ts';

/** One scoring: who scored, for which feature, how much each, during play or at the end. */
export interface ScoreEvent {
  players: number[];
  /** A garden scores as a monastery does, and under that kind (with `garden: true`). */
  kind: 'city' | 'road' | 'monastery' | 'farm';
  garden?: true;
  /** The road had an inn, the city a cathedral (Inns & Cathedrals): its points are theirs, 0 when
   * left unfinished at the end. */
  inn?: true;
  cathedral?: true;
  points: number;
  phase: 'play' | 'final';
  /** Distinct tiles of the feature (for farms: the completed cities it supplies). */
  tiles: number;
}

const KIND_EVENT = ['city', 'road', 'farm', 'monastery'] as const;

/** Pays `points` to each player in the `winners` bitmask for a feature of `kind`. `mods`: the
 * feature's inn or cathedral, named in its event (then sent even at 0 points: an unfinished road
 * with an inn is worth nothing, and a player should see why). */
export function award(s: GameState, winners: number, points: number, kind: number, phase: ScoreEvent['phase'], tiles: number, events?: ScoreEvent[], mods = 0): void {
  const bucket = kind === KIND_GARDEN ? KIND_MONASTERY : kind;
  for (let p = 0; p < MAX_SEATS; p++) {
    if (!(winners & (1 << p))) continue;
    s.h[H_SCORE + p] += points;
    s.h[H_BY_KIND + p * 4 + bucket] += points;
  }
  // Searches score without events: nothing to allocate for them.
  if (events && (points > 0 || mods !== 0)) {
    const players: number[] = [];
    for (let p = 0; p < MAX_SEATS; p++) if (winners & (1 << p)) players.push(p);
    events.push({
      players,
      kind: KIND_EVENT[bucket],
      points,
      phase,
      tiles,
      ...(kind === KIND_GARDEN ? { garden: true as const } : {}),
      ...(mods & MOD_INN ? { inn: true as const } : {}),
      ...(mods & MOD_CATHEDRAL ? { cathedral: true as const } : {}),
    });
  }
}
