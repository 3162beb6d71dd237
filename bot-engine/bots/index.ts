// Bot levels and the one entry point every caller uses: chooseMove(view, level, seed, control).
// A move is a pure function of (the bot's view of the state, level, seed); `control` is only
// a safety cap (deadline, cancellation) and reports whether it cut the search short.

import type { GameState } from '../state.ts';
import { Rng } from '../rng.ts';
import { randomMove } from '../playout.ts';

export const BOT_LEVELS = ['random', 'greedy', 'heuristic', 'medium', 'hard', 'expert'] as const;
export type BotLevel = (typeof BOT_LEVELS)[number];

export function isBotLevel(value: unknown): value is BotLevel {
  return typeof value === 'string' && (BOT_LEVELS as readonly string[]).includes(value);
}

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
  switch (level) {
    default: {
      const m = randomMove(view, new Rng(seed));
      return { ...m, iterations: 1, stopped: control?.shouldStop() ?? false };
    }
  }
}
