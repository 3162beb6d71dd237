// Server frames as a played game sends them: each one fits its schema (server/wire/frames.ts), a
// version 2 connection that applies deltas sees exactly the views a version 1 connection gets
// whole, and a `sync` brings the whole view back.

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Compile } from 'typebox/compile';
import { SERVER_FRAMES, type ServerFrameType } from '../server/wire/frames.ts';
import { randomMove } from '../support/game-client.ts';
import { Client, createGame, playUntilOver, type Running, startServer } from './server-helpers.ts';

let server: Running;
before(async () => {
  server = await startServer();
});
after(async () => {
  await server.app.close();
});

/** Joins keeping every frame as sent, from the welcome on. */
async function joinRaw(id: string, token: string | undefined, v: number, ws = server.ws): Promise<Client & { raw: any[] }> {
  const c = (await Client.connect(ws)) as Client & { raw: any[] };
  c.raw = [];
  c.send({ type: 'hello', v, gameId: id, ...(token ? { token } : {}) });
  c.welcome = await c.next((f) => f.type === 'welcome');
  return c;
}

const validators = Object.fromEntries(Object.entries(SERVER_FRAMES).map(([type, schema]) => [type, Compile(schema)])) as Record<ServerFrameType, ReturnType<typeof Compile>>;

function assertFits(frame: any): void {
  const validator = validators[frame.type as ServerFrameType];
  assert.ok(validator, `a known frame type: ${frame.type}`);
  const problems = [...validator.Errors(frame)].map((e) => `${e.instancePath} ${e.message}`);
  assert.deepEqual(problems, [], `${frame.type} frame fits its schema: ${JSON.stringify(frame).slice(0, 300)}`);
}

test('a whole game: every frame fits its schema, and deltas lead to the views version 1 gets whole', { timeout: 60_000 }, async () => {
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
  const player = await joinRaw(id, tokens.get(0), 2);
  const wholeWatcher = await joinRaw(id, undefined, 1);
  const deltaWatcher = await joinRaw(id, undefined, 2);
  assert.equal(wholeWatcher.welcome.v, 1);
  assert.equal(deltaWatcher.welcome.v, 2);
  for (const c of [player, wholeWatcher, deltaWatcher]) assertFits(c.welcome);

  const final = await playUntilOver(new Map([[0, player]]));
  // Each watcher has every frame the game sent by the time it answers a ping sent after the end.
  await wholeWatcher.roundTrip();
  await deltaWatcher.roundTrip();
  await player.roundTrip();

  for (const frame of [...player.raw, ...wholeWatcher.raw, ...deltaWatcher.raw]) assertFits(frame);
  assert.ok(
    wholeWatcher.raw.every((f) => f.type !== 'delta'),
    'version 1 gets whole views only',
  );
  const deltas = deltaWatcher.raw.filter((f) => f.type === 'delta');
  assert.ok(deltas.length > 30, `version 2 gets deltas (${deltas.length})`);
  assert.equal(deltaWatcher.raw.filter((f) => f.type === 'state').length, 1, 'one whole view, then deltas only');
  const seqs = deltaWatcher.raw.filter((f) => f.type === 'state' || f.type === 'delta').map((f) => f.seq);
  assert.deepEqual(
    seqs,
    seqs.map((_, i) => seqs[0] + i),
    'sequence numbers follow one another',
  );

  const whole = wholeWatcher.frames.filter((f) => f.type === 'state').map((f) => f.view);
  const applied = deltaWatcher.frames.filter((f) => f.type === 'state').map((f) => f.view);
  assert.deepEqual(applied, whole, 'every view built from deltas equals the whole one, frame for frame');
  const biggest = Math.max(...deltas.map((f) => JSON.stringify(f).length));
  const lastWhole = JSON.stringify(wholeWatcher.raw.findLast((f) => f.type === 'state')).length;
  assert.ok(biggest < lastWhole / 2, `a delta (at most ${biggest} B) is much smaller than a whole view at the end (${lastWhole} B)`);

  // The player's folded view at the end is the one a fresh connection gets whole.
  const again = await Client.join(server.ws, id, tokens.get(0), 1);
  const fresh = await again.latestState();
  assert.deepEqual(final, fresh.view);
  for (const c of [player, wholeWatcher, deltaWatcher, again]) c.close();
});

test('sync answers with the whole view at the current seq; the next delta follows it', { timeout: 30_000 }, async () => {
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
  const player = await joinRaw(id, tokens.get(0), 2);
  const first = await player.latestState();
  player.send({ type: 'sync', id: 's1' });
  await player.roundTrip();
  const synced = player.raw.filter((f) => f.type === 'state');
  assert.equal(synced.length, 2, 'the first view, then the sync answer');
  assert.deepEqual(synced[1].view, first.view);
  assert.equal(synced[1].seq, synced[0].seq, 'nothing changed in between: same seq');
  assert.equal(first.view.currentSeat, 0, 'the person moves first');
  player.send({ type: 'move', turn: first.view.turn, move: randomMove(first.view.legal, Math.random, 0) });
  await player.next((f) => f.type === 'state' && f.view.turn > first.view.turn);
  const next = player.raw.find((f) => f.type === 'delta');
  assert.equal(next.seq, synced[1].seq + 1);
  assert.deepEqual(next.placed.length, 1, 'the placed tile comes in the delta');

  const watcher = await joinRaw(id, undefined, 2);
  watcher.send({ type: 'sync' });
  await watcher.roundTrip();
  // Whole views only (the bot may answer the move meanwhile: its frame is a delta).
  assert.equal(watcher.raw.filter((f) => f.type === 'state').length, 2, 'a watcher may sync too');
  player.close();
  watcher.close();
});

test('a sync answered at a seq shows the view the deltas built at that seq, however often it is asked while bots think', { timeout: 60_000 }, async (t) => {
  // A database file, as the server keeps one: moves are written by its writer thread, so a bot's
  // turn ends (its search done) a while before its move is stored and sent.
  // One bot that searches: its turns are long enough for syncs to land while it thinks, however
  // fast or busy the machine. The deadline (1 s) leaves room for its search in the pool even on a
  // loaded machine: with 200 ms a starved pool's predicted wait sent every bot move to the
  // main-thread fallback, which no sync can land during.
  const server = await startServer({ dataDir: mkdtempSync(join(tmpdir(), 'tessera-sync-')), botDeadlineMs: 1000 });
  t.after(() => server.app.close());
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'bot', level: 'random' }, { kind: 'bot', level: 'random' }, { kind: 'bot', level: 'hard' }]);
  const player = await Client.join(server.ws, id, tokens.get(0), 2);
  const deltaWatcher = await joinRaw(id, undefined, 2, server.ws);
  const syncer = await joinRaw(id, undefined, 2, server.ws);
  // Keeps a few syncs in flight (one more as each whole view comes): they cover the whole game,
  // bots' turns too.
  let syncing = true;
  // A bot turn's start (a delta with botThinking) is met by one more sync at once.
  syncer.socket.addEventListener('message', (e) => {
    const frame = JSON.parse(String(e.data));
    if (syncing && (frame.type === 'state' || frame.view?.botThinking === true)) syncer.send({ type: 'sync' });
  });
  for (let i = 0; i < 8; i++) syncer.send({ type: 'sync' });
  await playUntilOver(new Map([[0, player]]), 50_000);
  syncing = false;
  await deltaWatcher.roundTrip();
  await syncer.roundTrip();

  const built = new Map<number, any>(deltaWatcher.frames.filter((f) => f.type === 'state').map((f) => [f.seq, f.view]));
  const answers = syncer.raw.filter((f) => f.type === 'state');
  const differing = answers.filter((f) => JSON.stringify(f.view) !== JSON.stringify(built.get(f.seq)));
  assert.ok(answers.length > 50, `syncs all along (${answers.length})`);
  assert.ok(
    answers.some((f) => f.view.botThinking),
    'some while a bot thinks',
  );
  const fields = (f: any) => Object.keys(f.view).filter((k) => JSON.stringify(f.view[k]) !== JSON.stringify(built.get(f.seq)?.[k]));
  assert.deepEqual(
    differing.slice(0, 3).map((f) => ({ seq: f.seq, fields: fields(f) })),
    [],
    `${differing.length} of ${answers.length} sync answers differ from the view at their seq (${[...new Set(differing.flatMap(fields))].join(', ')})`,
  );
  for (const c of [player, deltaWatcher, syncer]) c.close();
});
