// Every level plays exactly the moves captured in test/fixtures/decisions.json (2-4 players,
// several rule options): a change meant to keep play the same must pass this unchanged.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chooseMove, type BotLevel } from '../bot-engine/bots/index.ts';
import { resolvedToMove, type Move } from '../bot-engine/game.ts';
import { replayRecord } from '../bot-engine/record.ts';
import { hideBag } from '../bot-engine/rules.ts';

interface Position {
  record: unknown;
  seed: number;
  moves: { level: BotLevel; move: Move }[];
}

const positions: Position[] = JSON.parse(readFileSync(new URL('./fixtures/decisions.json', import.meta.url), 'utf8'));

test('every level plays the captured move in each captured position', () => {
  let checked = 0;
  for (const [i, { record, seed, moves }] of positions.entries()) {
    const { state } = replayRecord(record);
    for (const { level, move } of moves) {
      assert.deepEqual(resolvedToMove(state, chooseMove(hideBag(state.clone()), level, seed)), move, `position ${i}, ${level}`);
      checked++;
    }
  }
  assert.ok(checked >= 120, `${checked} decisions`);
});
