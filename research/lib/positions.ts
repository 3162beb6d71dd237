// Positions for the search screens (bench/agreement.ts, bench/regret.ts): every `every`-th turn
// of `games` 2-player self-play games of `level`, each with the bot's view (undrawn bag sorted)
// and the seed a bot would get there. Deterministic, so two screens see the same positions.

import { type BotLevel, chooseMove } from '../../bot-engine/bots/index.ts';
import { newGame } from '../../bot-engine/game.ts';
import { bagEmpty, discardUnplaceable, hideBag, place } from '../../bot-engine/rules.ts';
import { fnv1a, mixSeed } from '../../bot-engine/rng.ts';
import type { GameState } from '../../bot-engine/state.ts';

export interface Position {
  view: GameState;
  seed: number;
}

export function selfPlayPositions(games: number, every: number, level: BotLevel, prefix: string): Position[] {
  const positions: Position[] = [];
  for (let g = 0; g < games; g++) {
    const s = newGame({ players: 2, seed: `${prefix}:${g}` });
    for (let turn = 0; !bagEmpty(s); turn++) {
      const view = hideBag(s.clone());
      const seed = mixSeed(fnv1a(`${prefix}:${g}`), turn, s.currentPlayer);
      if (turn >= 2 && (turn - 2) % every === 0) positions.push({ view, seed });
      const d = chooseMove(view, level, seed);
      place(s, d.fi, d.r, d.spot);
      discardUnplaceable(s);
    }
  }
  return positions;
}
