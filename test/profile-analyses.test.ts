// Rated games are analysed without anyone asking, on the real pool's idle workers: one that ends
// while the server runs, and one that ended before a restart without its analysis; an unrated
// game is left alone, and bot moves played meanwhile do not wait for the analyses.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { newGame } from '../bot-engine/game.ts';
import { SqliteStore } from '../server/storage/sqlite/games.ts';
import type { GameSetup } from '../server/games/store.ts';
import { Client, createGame, get, injectServer, playTurns, playUntilOver, randomRecordMoves, twoPeopleSetup, WAIT } from './server-helpers.ts';

const holders = [
  { name: 'Ann', tokenHash: 'aa', playerId: 'p_annAAAAAAAAAAAAAAAAAAA' },
  { name: 'Bo', tokenHash: 'bb', playerId: 'p_boBBBBBBBBBBBBBBBBBBBB' },
];

/** Stores a two-player game with `placements` random moves; ended (abandoned, as it stood) when `end`. */
async function storeGame(store: SqliteStore, id: string, rated: boolean, placements: number, end: boolean): Promise<number> {
  const setup: GameSetup = { ...twoPeopleSetup(id), seed: `seed-${id}`, ...(rated ? { rated: true } : {}) };
  const moves = randomRecordMoves(newGame({ players: 2, rules: setup.rules, seed: setup.seed }), 7, placements);
  await store.create(setup, holders);
  await store.appendMoves(id, moves, end ? { abandoned: true, scores: [3, 4] } : null);
  return moves.filter((m) => !('discard' in m)).length;
}

test('rated games get their analysis stored on idle workers, after a restart too; bot moves go first', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-rated-analyses-'));
  const before = new SqliteStore({ path: join(dataDir, 'tessera.db') });
  // Long enough to be running while the bot plays, short enough for a busy machine under coverage
  // (each position is a bounded search: 40 of them took over two minutes with two suites at once).
  const longOne = await storeGame(before, 'rated-before-restart', true, 20, true);
  await storeGame(before, 'unrated', false, 6, true);
  // Its people never come back: the server abandons it (expireAwaySeconds), and so ends it itself.
  await storeGame(before, 'rated-ends-here', true, 6, false);
  await before.close();

  const { app } = await injectServer({ dataDir, expireAwaySeconds: 1 });
  try {
    const ended: string[] = [];
    app.games.onFinished((setup) => ended.push(setup.id));
    // A person plays a bot while the analyses run.
    const { id, tokens } = await createGame(app, [{ kind: 'person' }, { kind: 'bot', level: 'heuristic' }]);
    const ann = await Client.join(app, id, tokens.get(0));
    await playTurns(new Map([[0, ann]]), 8, 60_000);
    ann.close();
    // One automatic analysis at a time: the other waits in its backlog (not yet asked: "none").
    const meanwhile = await Promise.all(['rated-before-restart', 'rated-ends-here'].map(async (g) => (await get(app, `/api/games/${g}/analysis?orNone=true`)).body.status));
    assert.ok(meanwhile.includes('running'), `an analysis ran while the bot played (${meanwhile})`);
    // Played out to the last tile (back in the seat: a fresh view to play from), the game is
    // announced as finished; unrated, it is not analysed.
    const back = await Client.join(app, id, tokens.get(0));
    await playUntilOver(new Map([[0, back]]), 60_000);
    back.close();
    await t.waitFor(() => assert.ok(ended.includes(id)), WAIT);

    const analysed = async (gameId: string) => {
      const answer = await get(app, `/api/games/${gameId}/analysis?orNone=true`);
      assert.equal(answer.body.status, 'done', `${gameId}: ${answer.body.status}`);
      return answer.body;
    };
    await t.waitFor(() => analysed('rated-ends-here'), { timeout: 120_000, interval: 100 });
    const restarted = await t.waitFor(() => analysed('rated-before-restart'), { timeout: 120_000, interval: 100 });
    assert.equal(restarted.moves.length, longOne, 'every placement judged');
    for (const unrated of ['unrated', id])
      assert.deepEqual((await get(app, `/api/games/${unrated}/analysis?orNone=true`)).body, { gameId: unrated, status: 'none' }, 'an unrated game waits for someone to ask');

    const classes = app.pool.summary().classes!;
    assert.ok(classes.analysis.runMs.count >= longOne, 'the positions ran in the pool’s analysis class');
    assert.ok(classes.interactive.queueWaitMs.count > 0, 'the bot searched meanwhile');
    // A bot search waits at most for a running position to yield, never for a whole one.
    assert.ok(classes.interactive.queueWaitMs.max < classes.analysis.runMs.max, `bot wait ${classes.interactive.queueWaitMs.max} ms, analysis position ${classes.analysis.runMs.max} ms`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
