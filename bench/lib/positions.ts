// Positions for the search screens (research/agreement.ts, research/regret.ts) and the bot CPU benchmark: every `every`-th
// turn of `games` self-play games of `level` (2 players and the default rules unless asked), each with the bot's view (undrawn bag sorted)
// and the seed a bot would get there. Deterministic, so two screens see the same positions.

import { type BotLevel, chooseMove } from '../../bot-engine/bots/index.ts';
import { newGame } from '../../bot-engine/game.ts';
import type { Rules } from '../../bot-engine/rules.ts';
import { bagEmpty, discardUnplaceable, hideBag, place } from '../../bot-engine/rules.ts';
import { fnv1a, mixSeed } from '../../bot-engine/rng.ts';
import type { GameState } from '../../bot-engine/state.ts';

export interface Position {
  view: GameState;
  seed: number;
}

export function selfPlayPositions(games: number, every: number, level: BotLevel, prefix: string, players = 2, rules?: Partial<Rules>): Position[] {
  const positions: Position[] = [];
  // Other tables get other games (the 2-player default keeps the positions earlier screens saw).
  const table = players === 2 && !rules ? prefix : `${prefix}-${players}p-${JSON.stringify(rules ?? {})}`;
  for (let g = 0; g < games; g++) {
    const s = newGame({ players, rules, seed: `${table}:${g}` });
    for (let turn = 0; !bagEmpty(s); turn++) {
      const view = hideBag(s.clone());
      const seed = mixSeed(fnv1a(`${table}:${g}`), turn, s.currentPlayer);
      if (turn >= 2 && (turn - 2) % every === 0) positions.push({ view, seed });
      const d = chooseMove(view, level, seed);
      place(s, d.fi, d.r, d.spot);
      discardUnplaceable(s);
    }
  }
  return positions;
}
