// Every async path has one error boundary: a fault that is not the disk's (a plain Error from the
// store) is logged once with the game id, the player is told, the game goes on once the fault
// clears, and the process never exits. Faults are injected into a real store (fault injection,
// not a mock: every other call reaches the real MemoryStore). Gauges are computed on scrape.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import type { GameStore, MetadataChange } from '../server/games/store.ts';
import { memoryBackend } from '../server/storage/memory/backend.ts';
import { Client, createGame, get, playUntilOver, injectServer } from './server-helpers.ts';

/** A real store whose `method` throws a plain Error on its `nth` call and the `times - 1` after it
 * (counting only the calls `which` picks). */
function faulty(inner: GameStore, method: keyof GameStore, nth: number, times = 1, which: (...args: unknown[]) => boolean = () => true): GameStore & { calls: number } {
  let calls = 0;
  const wrapper = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'calls') return calls;
      const value = Reflect.get(target, prop, receiver);
      if (prop !== method || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        if (!which(...args)) return value.apply(target, args);
        calls++;
        if (calls >= nth && calls < nth + times) throw new Error(`injected ${String(method)} fault`);
        return value.apply(target, args);
      };
    },
  });
  return wrapper as GameStore & { calls: number };
}

const parsed = (lines: string[]) => lines.map((l) => JSON.parse(l));

test('a non-storage error while a hint is counted: one internal error frame, logged once with the game id, the process lives on', async () => {
  const logLines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logLines.push(line) });
  const memory = memoryBackend();
  const server = await injectServer({ logLevel: 'info' }, true, {
    logger,
    backend: { ...memory, games: faulty(memory.games, 'update', 1, 1, (_id, change) => (change as MetadataChange).name === 'hint') },
  });
  try {
    const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }], undefined, { hints: true });
    const ann = await Client.join(server.ws, id, tokens.get(0));
    const view = (await ann.latestState((f) => f.view.legal, 20_000)).view;
    ann.send({ type: 'hint', turn: view.turn, id: 'h1' });
    const refused = await ann.next((f) => f.type === 'error' || f.type === 'hint', 20_000);
    assert.deepEqual([refused.type, refused.code, refused.ref], ['error', 'internal', 'h1']);
    const errors = parsed(logLines).filter((l) => l.level >= 50);
    assert.equal(errors.length, 1, `logged once: ${JSON.stringify(errors)}`);
    assert.equal(errors[0].gameId, id);
    // The fault cleared: the same turn's hint is answered and counted.
    ann.send({ type: 'hint', turn: view.turn, id: 'h2' });
    const hint = await ann.next((f) => f.type === 'hint' || f.type === 'error', 20_000);
    assert.deepEqual([hint.type, hint.ref], ['hint', 'h2']);
    assert.equal((await ann.latestState((f) => f.view.seats[0].hints === 1)).view.turn, view.turn);
    assert.equal((await get(server.base, '/healthz')).status, 200);
  } finally {
    await server.app.close();
  }
});

test('a non-storage error while a bot move is stored: logged once with the game id, players told, the move is tried again and the game goes on', async () => {
  const logLines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logLines.push(line) });
  // The bot moves first: the first two appendMoves are its move (and its first retry).
  const memory = memoryBackend();
  const store = faulty(memory.games, 'appendMoves', 1, 2);
  const server = await injectServer({ logLevel: 'info' }, true, { logger, backend: { ...memory, games: store } });
  try {
    const { id, tokens } = await createGame(server.base, [{ kind: 'bot', level: 'random' }, { kind: 'person' }]);
    const ann = await Client.join(server.ws, id, tokens.get(1));
    const told = await ann.next((f) => f.type === 'error', 20_000);
    assert.equal(told.code, 'internal');
    assert.equal(told.ref, undefined, 'no frame of theirs caused it');
    const view = (await ann.latestState((f) => f.view.currentSeat === 1 && f.view.legal, 30_000)).view;
    assert.equal(view.turn, 1, 'the bot’s move was stored once the fault cleared');
    const p = view.legal[0];
    ann.send({ type: 'move', turn: view.turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple: null } });
    assert.ok((await ann.latestState((f) => f.view.currentSeat === 1 && f.view.turn >= 3, 20_000)).view.turn >= 3, 'the game goes on');
    const errors = parsed(logLines).filter((l) => l.level >= 50);
    assert.equal(errors.length, 1, `logged once for the streak: ${JSON.stringify(errors)}`);
    assert.equal(errors[0].gameId, id);
    assert.match(errors[0].err.message, /injected appendMoves fault/);
    assert.ok(store.calls >= 4);
  } finally {
    await server.app.close();
  }
});

test('/metrics computes pool utilisation and active games on scrape, without /api/pool', async () => {
  const server = await injectServer();
  const series = async (name: string) => {
    const text = (await get(server.base, '/metrics')).body as string;
    return text
      .split('\n')
      .filter((l) => l.startsWith(name))
      .map((l) => [l.split(' ')[0], Number(l.split(' ')[1])] as const);
  };
  try {
    const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }], undefined, { rules: { tinyCity: true } });
    assert.deepEqual(await series('tessera_games_active '), [['tessera_games_active', 1]]);
    const ann = await Client.join(server.ws, id, tokens.get(0));
    await playUntilOver(new Map([[0, ann]]));
    const utilization = new Map(await series('tessera_pool_utilization{'));
    assert.ok((utilization.get('tessera_pool_utilization{class="interactive"}') ?? 0) > 0, `bot searches show as busy time: ${JSON.stringify([...utilization])}`);
    assert.deepEqual(await series('tessera_games_active '), [['tessera_games_active', 0]], 'a game finished by a move is no longer active');
  } finally {
    await server.app.close();
  }
});
