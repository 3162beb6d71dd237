// Game analysis: what a played move gave up against the expert's choice, judged from the mover's
// view only (the bag's order is never read: the view's undrawn tiles are sorted first). Pure and
// iteration-bounded, so the same position gives the same verdict on any machine; a `control`
// may only stop it early, and a stopped analysis has no verdict (the caller runs it again).

import { hideBag } from './rules.ts';
import type { GameState } from './state.ts';
import { type Move, newGame, playMove, resolveMove, resolvedToMove } from './game.ts';
import type { GameRecord } from './record.ts';
import { type SearchControl, chooseMove } from './bots/index.ts';
import { packMove } from './bots/moves.ts';
import { SEARCH_LEVELS, budgetAt, rolloutValues } from './bots/rollout.ts';
import { mixSeed } from './rng.ts';

/** Paired determinizations behind the two values compared, each as far ahead as the expert's
 * own search looks at this table (two rounds, one at five or six players). */
export const ANALYSIS_SAMPLES = 16;

/** Ceiling on one position's verdict, CPU p95 on one quiet core (npm run bench:bots checks it):
 * background work that gives its worker up to any bot move or hint, so it may cost two expert
 * moves, not more, to keep a finished game's analysis within a minute or so of one worker. */
export const ANALYSIS_CPU_BUDGET_MS = 1000;

export interface PositionVerdict {
  played: Move;
  /** The expert's move; the played one when the rollouts rate it at least as high. */
  best: Move;
  /** Mean lead (points) after each move over the same determinizations. One move has one value:
   * when `best` is the played move both are its value, or both null when the expert's search
   * chose it too (nothing was compared). */
  playedValue: number | null;
  bestValue: number | null;
  /** Expected points lost: bestValue − playedValue, never negative. */
  loss: number;
}

/** The verdict on `played` in `view` (a copy is taken; `view` is not changed), or null if
 * `control` stopped the work or the move is illegal there. */
export function analysePosition(view: GameState, played: Move, seed: number, control?: SearchControl): PositionVerdict | null {
  const own = hideBag(view.clone());
  const resolved = resolveMove(own, played);
  if ('error' in resolved) return null;
  let stopped = false;
  const watch: SearchControl = {
    shouldStop: () => {
      stopped ||= control?.shouldStop() ?? false;
      return stopped;
    },
  };
  const decision = chooseMove(own, 'expert', seed, watch);
  if (stopped) return null;
  const canonical = resolvedToMove(own, resolved);
  const playedPacked = packMove(resolved.fi, resolved.r, resolved.spot);
  const bestPacked = packMove(decision.fi, decision.r, decision.spot);
  if (playedPacked === bestPacked) return { played: canonical, best: canonical, playedValue: null, bestValue: null, loss: 0 };
  const [bestValue, playedValue] = rolloutValues(own, [bestPacked, playedPacked], budgetAt(SEARCH_LEVELS.expert, own.players).horizon, ANALYSIS_SAMPLES, mixSeed(seed, 0xa4a1), watch);
  if (stopped) return null;
  const round = (x: number) => Math.round(x * 100) / 100;
  const loss = Math.max(0, round(bestValue - playedValue));
  if (loss === 0) return { played: canonical, best: canonical, playedValue: round(playedValue), bestValue: round(playedValue), loss };
  return { played: canonical, best: resolvedToMove(own, decision), playedValue: round(playedValue), bestValue: round(bestValue), loss };
}

export interface AnalysisPosition {
  /** Index of the placement in the record's moves (discards are not positions). */
  moveIndex: number;
  seat: number;
  tile: string;
  /** The state the mover faced, bag hidden: what that seat could know. */
  view: GameState;
  played: Move;
}

/** Every placement of a dealt game (its record has the seed), with the view its mover had. */
export function* analysisPositions(record: GameRecord): Generator<AnalysisPosition> {
  if (record.seed === undefined) throw new Error('only a dealt game (a record with its seed) can be analysed');
  const state = newGame({ players: record.players.length, rules: record.rules, seed: record.seed });
  for (const [moveIndex, move] of record.moves.entries()) {
    if ('discard' in move) continue; // playMove already drew past it
    const view = hideBag(state.clone());
    const seat = state.currentPlayer;
    const { tile: _tile, ...played } = move;
    const outcome = playMove(state, played);
    if ('error' in outcome) throw new Error(`move ${moveIndex} does not replay: ${outcome.error}`);
    yield { moveIndex, seat, tile: move.tile, view, played };
  }
}
