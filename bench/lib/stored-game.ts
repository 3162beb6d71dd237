// A game's setup as the store benchmarks write it: a person against a hard bot, a turn clock,
// the size of a row the server writes.

import type { GameSetup } from '../../server/games/store.ts';

export function benchSetup(id: string): GameSetup {
  return {
    id,
    createdAt: new Date().toISOString(),
    seed: `seed-${id}`,
    rules: { tinyCity: false, farmers: '3rd' },
    seats: [{ kind: 'person' }, { kind: 'bot', level: 'hard' }],
    clock: { turnSeconds: 60, graceSeconds: 60 },
    standIn: 'hard',
  };
}
