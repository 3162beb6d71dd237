// Bot levels and the one entry point every caller uses: chooseMove(view, level, seed, control).
// A move is a pure function of (the bot's view of the state, level, seed); `control` is only
// a safety cap (deadline, cancellation) and reports whether it cut the search short.

import { GameState } from '../state.ts';
import { Rng } from '../rng.ts';
import { randomMove } from '../playout.ts';
import { hideBag } from '../rules.ts';
import { greedyMove } from './greedy.ts';
import { heuristicMove } from './heuristic.ts';
import { searchMove } from './rollout.ts';

import type { BotLevel } from './levels.ts';

export { BOT_LEVELS, type BotLevel, isBotLevel } from './levels.ts';

/** Polled by searches between iterations; true means stop now and answer with the best so far. */
export interface SearchControl {
  shouldStop(): boolean;
}

export interface BotDecision {
  /** Frontier slot, rotation index and local follower spot (-1: none), as rules.place takes. */
  fi: number;
  r: number;
  spot: number;
  /** Search iterations (playouts or evaluated moves) spent. */
  iterations: number;
  /** True when the control stopped the search before its budget ran out. */
  stopped: boolean;
}

/** The bot's move for the current tile of `view` (whose hidden bag it must not read). */
export function chooseMove(view: GameState, level: BotLevel, seed: number, control?: SearchControl): BotDecision {
  if (view.currentTile < 0 || view.finished) throw new Error('no tile to place: the game is over');
  // Work on a private copy whose undrawn bag is sorted: whatever order the caller left there,
  // the bot sees only the multiset (and the caller's state is never touched).
  own ??= new GameState();
  hideBag(own.copyFrom(view));
  switch (level) {
    case 'random': {
      const m = randomMove(own, new Rng(seed));
      return { ...m, iterations: 1, stopped: false };
    }
    case 'greedy':
      return greedyMove(own, seed, control);
    case 'heuristic':
      return heuristicMove(own, seed);
    default:
      return searchMove(own, level, seed, control);
  }
}

let own: GameState | null = null;
