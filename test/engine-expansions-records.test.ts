// Old records replay unchanged: the committed base-game records (test/fixtures/decisions.json)
// replay, and re-recording the replayed state gives the same record byte for byte; a base
// record carries no expansion key; the record examples in docs/ENGINE.md replay in a game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { newGame, playMove } from '../bot-engine/game.ts';
import { replayRecord, toRecord } from '../bot-engine/record.ts';
import { playRandomGame } from '../bot-engine/playout.ts';
import { Rng } from '../bot-engine/rng.ts';
import type { Rules } from '../bot-engine/rules.ts';

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

test('the committed base records replay and re-record byte for byte', () => {
  const fixtures: { record: { players: string[]; seed: string; rules: Rules } }[] = JSON.parse(read('./fixtures/decisions.json'));
  assert.ok(fixtures.length >= 30);
  for (const { record } of fixtures) {
    const replay = replayRecord(record);
    assert.equal(JSON.stringify(toRecord(replay.state, record.players, record.seed)), JSON.stringify(record));
    // The same moves played through the public API from a dealt game reach the same bytes.
    const played = newGame({ players: record.players.length, seed: record.seed, rules: record.rules });
    // (playMove discards unplaceable draws itself, as the record's discard entries say.)
    for (const move of (record as unknown as { moves: ({ x: number; y: number; rotation: number; meeple: string | null } | { discard: string })[] }).moves) {
      if ('discard' in move) continue;
      const outcome = playMove(played, { x: move.x, y: move.y, rotation: move.rotation, meeple: move.meeple });
      assert.ok(!('error' in outcome), JSON.stringify(outcome));
    }
    assert.ok(Buffer.from(played.bytes).equals(Buffer.from(replay.state.bytes)));
  }
});

test('a base game record holds only the keys it always had', () => {
  const s = newGame({ players: 3, seed: 'plain', rules: { tinyCity: true, farmers: '2nd' } });
  playRandomGame(s, new Rng(3));
  const record = toRecord(s, ['a', 'b', 'c'], 'plain');
  assert.deepEqual(Object.keys(record.rules!), ['tinyCity', 'farmers']);
  for (const move of record.moves) {
    const keys = Object.keys(move).sort().join(',');
    assert.ok(keys === 'meeple,rotation,tile,x,y' || keys === 'discard', keys);
  }
});

test("docs/ENGINE.md's record examples are valid records and moves", () => {
  const doc = read('../docs/ENGINE.md');
  const section = doc.slice(doc.indexOf('### Records with the expansions'), doc.indexOf('## Expansions'));
  const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.equal(blocks.length, 2);
  const header = JSON.parse(blocks[0]);
  const replay = replayRecord({ ...header, seed: 'doc' });
  assert.equal(replay.state.players, 6);
  assert.deepEqual(replay.state.largeFollowers(5) + replay.state.abbots(5), 2);
  const moves = blocks[1]
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    moves.map((m) => m.figure ?? (m.returnAbbot ? 'back' : 'follower')),
    ['follower', 'large', 'abbot', 'back'],
  );
});
