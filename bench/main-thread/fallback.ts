// What the server's main-thread fallback move costs: `greedy` over every move against `greedy`
// under the scheduler's 2 ms control (the best of the moves scored in that time), at every turn of
// whole seeded games, in this process (after one game's warm-up, as in a running server). Reports
// the wall time per move (what the event loop waits; thread CPU clocks here tick in 4 ms, too coarse)
// and how often the bounded move is the one scoring them all would choose.
//
//   node bench/main-thread/fallback.ts [--games=30] [--budget-ms=2]

import { parseArgs } from 'node:util';
import { chooseMove, type SearchControl } from '../../bot-engine/bots/index.ts';
import { newGame } from '../../bot-engine/game.ts';
import { bagEmpty, discardUnplaceable, hideBag, place } from '../../bot-engine/rules.ts';
import type { GameState } from '../../bot-engine/state.ts';
import { summarize, table } from '../lib/stats.ts';

const { values } = parseArgs({ options: { games: { type: 'string', default: '30' }, 'budget-ms': { type: 'string', default: '2' } } });
const budgetMs = Number(values['budget-ms']);

function timed(view: GameState, seed: number, control?: SearchControl) {
  const t0 = performance.now();
  const d = chooseMove(view, 'greedy', seed, control);
  return { d, ms: performance.now() - t0 };
}

const all: number[] = [];
const bounded: number[] = [];
let same = 0;
let stopped = 0;
let moves = 0;
for (let g = -1; g < Number(values.games); g++) {
  const s = newGame({ players: g < 0 ? 2 : 2 + (g % 3), seed: `fallback-${g}` });
  for (let turn = 0; !bagEmpty(s); turn++) {
    const view = hideBag(s.clone());
    const full = timed(view, turn);
    const until = performance.now() + budgetMs;
    const cut = timed(view, turn, { shouldStop: () => performance.now() >= until });
    place(s, full.d.fi, full.d.r, full.d.spot);
    discardUnplaceable(s);
    if (g < 0) continue; // the warm-up game
    all.push(full.ms);
    bounded.push(cut.ms);
    moves++;
    if (cut.d.fi === full.d.fi && cut.d.r === full.d.r && cut.d.spot === full.d.spot) same++;
    if (cut.d.stopped) stopped++;
  }
}

const row = (name: string, ms: number[]) => {
  const w = summarize(ms, 2);
  return [name, ms.length, `${w.p50} / ${w.p95} / ${w.p99} / ${w.max}`];
};
console.log(table(['greedy', 'moves', 'ms per move p50 / p95 / p99 / max'], [row('every move scored', all), row(`${budgetMs} ms control`, bounded)]));
console.log(`\nBounded: stopped early on ${stopped} of ${moves} moves; the same move as scoring them all on ${same} (${Math.round((100 * same) / moves)} %).`);
