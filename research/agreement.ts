// How often two search settings pick the same move: `node research/agreement.ts [--games 5]
// [--every 5] [--configs '{"name":{"candidates":8,"samples":4,"horizon":2,"halving":true},…}']`.
//
// Plays `hard` self-play games and, every `every` turns, asks each setting (and `heuristic`)
// for its move in that position. Cheap next to a tournament: it shows whether more budget
// changes decisions at all (a setting that agrees with a smaller one on nearly every move cannot
// beat it by much), not which setting is stronger.

import { parseArgs } from 'node:util';
import { chooseMove } from '../bot-engine/bots/index.ts';
import { type RolloutParams, SEARCH_LEVELS, rolloutSearch } from '../bot-engine/bots/rollout.ts';
import { selfPlayPositions } from '../bench/lib/positions.ts';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '5' },
    every: { type: 'string', default: '5' },
    configs: { type: 'string' },
  },
});
const games = Number(values.games);
const every = Number(values.every);
if (!Number.isInteger(games) || games < 1 || !Number.isInteger(every) || every < 1) throw new Error('--games and --every must be positive integers');
const configs: Record<string, RolloutParams> = values.configs ? JSON.parse(values.configs) : SEARCH_LEVELS;
const names = [...Object.keys(configs), 'heuristic'];
const same = new Map<string, number>();
const positions = selfPlayPositions(games, every, 'hard', 'agreement');
for (const { view, seed } of positions) {
  const picked = names.map((name) => {
    const d = name === 'heuristic' ? chooseMove(view, 'heuristic', seed) : rolloutSearch(view, configs[name], seed);
    return `${d.fi}/${d.r}/${d.spot}`;
  });
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const key = `${names[i]} = ${names[j]}`;
      same.set(key, (same.get(key) ?? 0) + (picked[i] === picked[j] ? 1 : 0));
    }
  }
}
console.log(`${positions.length} positions from ${games} hard self-play games`);
for (const [pair, n] of same) console.log(`${pair}: ${((100 * n) / positions.length).toFixed(0)}% same move`);
