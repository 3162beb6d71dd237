// Rule options in a game's setup and a record's header: the keys the engine plays, the
// expansion keys, and anything else, refused with a clear error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newGame, normalizeRules } from '../bot-engine/game.ts';
import { RecordError, replayRecord } from '../bot-engine/record.ts';
import type { Rules } from '../bot-engine/rules.ts';

const header = (rules: unknown) => ({ format: 'tessera-game/1', rules, players: ['a', 'b'], seed: 's', moves: [] });

test('unknown rule keys are refused, naming the key and the known ones', () => {
  assert.throws(() => normalizeRules({ tinyCity: false, rivers: true } as unknown as Partial<Rules>), /unknown rule "rivers" \(known: tinyCity, farmers, river, innsCathedrals, abbot\)/);
  assert.throws(() => newGame({ players: 2, seed: 'x', rules: { inns: true } as unknown as Partial<Rules> }), /unknown rule "inns"/);
  assert.throws(
    () => replayRecord(header({ farmers: '3rd', dragon: false })),
    (e: unknown) => e instanceof RecordError && /unknown rule "dragon"/.test(e.message),
  );
});

test('an expansion key turns its option on with true; false changes nothing; anything else is refused', () => {
  for (const key of ['river', 'innsCathedrals', 'abbot']) {
    assert.throws(() => normalizeRules({ [key]: 'yes' } as unknown as Partial<Rules>), new RegExp(`rules.${key} must be true or false`));
    assert.throws(() => replayRecord(header({ [key]: 1 })), RecordError);
    assert.deepEqual(normalizeRules({ [key]: false } as Partial<Rules>), { tinyCity: false, farmers: '3rd' });
    assert.deepEqual(normalizeRules({ [key]: true } as Partial<Rules>), { tinyCity: false, farmers: '3rd', [key]: true });
  }
  const plain = newGame({ players: 3, seed: 'same' });
  const off = newGame({ players: 3, seed: 'same', rules: { river: false, innsCathedrals: false, abbot: false } as Partial<Rules> });
  assert.deepEqual(off.bytes, plain.bytes, 'the same state, bag included');
});

test("today's keys keep their checks", () => {
  assert.deepEqual(normalizeRules(undefined), { tinyCity: false, farmers: '3rd' });
  assert.deepEqual(normalizeRules({ tinyCity: true, farmers: '1st' }), { tinyCity: true, farmers: '1st' });
  assert.throws(() => normalizeRules({ tinyCity: 1 } as unknown as Partial<Rules>), /rules.tinyCity must be true or false/);
  assert.throws(() => normalizeRules({ farmers: '4th' } as unknown as Partial<Rules>), /rules.farmers must be/);
});
