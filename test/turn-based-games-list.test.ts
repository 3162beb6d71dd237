// Challenges by name and "your games" through the real app (app.inject, SQLite): a seat kept for
// a named player, refused clearly for an unknown name and to anyone else, listed in the
// challenged player's games at once; turn-based games with whose turn it is and the time left,
// the player's turns first. And whose turn it is read from a record without replaying it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { legalMoves, newGame } from '../bot-engine/game.ts';
import { replayRecord } from '../bot-engine/record.ts';
import { seatToMove } from '../server/games/deadlines.ts';
import { type Injected, injectServer, randomRecordMoves } from './server-helpers.ts';

const OWN = 'http://localhost:80';
const DAY = 86_400_000;
let server: Injected;
before(async () => {
  server = await injectServer({ createsPerMinute: 1000 });
});
after(() => server.app.close());

function call(method: 'GET' | 'POST' | 'DELETE', url: string, cookie?: string, body?: unknown): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { origin: OWN };
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return server.app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
}

async function guest(name: string): Promise<{ cookie: string; id: string }> {
  const res = await call('POST', '/api/session', undefined, { name });
  assert.equal(res.statusCode, 201, res.body);
  const set = res.cookies.find((c) => c.name === 'tessera_session');
  assert.ok(set);
  return { cookie: `tessera_session=${set.value}`, id: res.json().player.id };
}

const people = (...kept: (string | undefined)[]) => kept.map((player) => (player ? { kind: 'person', player } : { kind: 'person' }));

test('a challenge keeps the seat for the named player: refused for an unknown name, to anyone else, found in their games', async () => {
  const ann = await guest('Annika');
  const ben = await guest('Benedikt');
  const cy = await guest('Cyrille');
  const unknown = await call('POST', '/api/games', ann.cookie, { seats: people(undefined, 'Nobody Here'), pace: { kind: 'turnBased', moveDays: 2 } });
  assert.equal(unknown.statusCode, 404);
  assert.equal(unknown.json().code, 'unknown_player');
  assert.match(unknown.json().message, /Nobody Here/);
  const twice = await call('POST', '/api/games', ann.cookie, { seats: people(undefined, 'Benedikt', 'benedikt') });
  assert.equal(twice.statusCode, 400, 'one player in one seat');
  const bot = await call('POST', '/api/games', ann.cookie, { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random', player: 'Benedikt' }] });
  assert.equal(bot.statusCode, 400);
  const games = await call('GET', '/api/games');
  assert.equal(games.json().games.length, 0, 'nothing was made by a refused challenge');

  const made = await call('POST', '/api/games', ann.cookie, { seats: people(undefined, 'benedikt'), pace: { kind: 'turnBased', moveDays: 2 } });
  assert.equal(made.statusCode, 201, made.body);
  const id = made.json().id;
  assert.equal(made.json().seats[1].invited, 'Benedikt', 'the kept seat shows whom it is kept for');
  assert.equal((await call('POST', `/api/games/${id}/seats`, ann.cookie, { name: 'Annika' })).statusCode, 201);
  const taken = await call('POST', `/api/games/${id}/seats`, cy.cookie, { name: 'Cyrille' });
  assert.equal(taken.statusCode, 409);
  assert.equal(taken.json().code, 'no_seat');
  assert.match(taken.json().message, /kept for the players challenged|kept for Benedikt/);
  const typed = await call('POST', `/api/games/${id}/seats`, undefined, { name: 'Someone', seat: 1 });
  assert.equal(typed.statusCode, 409);
  assert.match(typed.json().message, /kept for Benedikt/);

  // Ben's next visit: the game is in his games, with the seat kept for him.
  const mine = (await call('GET', '/api/me/games', ben.cookie)).json().games;
  assert.equal(mine.length, 1);
  assert.deepEqual({ id: mine[0].id, invited: mine[0].invited, mySeats: mine[0].mySeats }, { id, invited: [1], mySeats: [] });
  const sat = await call('POST', `/api/games/${id}/seats`, ben.cookie, { name: 'Benedikt' });
  assert.equal(sat.statusCode, 201, sat.body);
  assert.equal(sat.json().seat, 1);
  const after = (await call('GET', '/api/me/games', ben.cookie)).json().games[0];
  assert.deepEqual(after.mySeats, [1]);
  assert.equal(after.invited, undefined);
  assert.equal((await call('GET', '/api/me/games', cy.cookie)).json().games.length, 0);
});

test('a challenged player who deletes themselves leaves an ordinary open seat: not shown as kept for them, and anyone may take it', async () => {
  const ann = await guest('Anouk');
  const ben = await guest('Bertil');
  const cy = await guest('Cosima');
  const made = await call('POST', '/api/games', ann.cookie, { seats: people(undefined, 'Bertil'), pace: { kind: 'turnBased', moveDays: 2 } });
  assert.equal(made.statusCode, 201, made.body);
  const id = made.json().id;
  assert.equal((await call('POST', `/api/games/${id}/seats`, ann.cookie, { name: 'Anouk' })).statusCode, 201);
  assert.equal((await call('GET', `/api/games/${id}`)).json().seats[1].invited, 'Bertil');

  assert.equal((await call('DELETE', '/api/me', ben.cookie)).statusCode, 204);
  const shown = await call('GET', `/api/games/${id}`);
  const { name, kind, invited } = shown.json().seats[1];
  assert.deepEqual({ name, kind, invited }, { name: null, kind: 'person', invited: undefined }, 'an open seat, kept for nobody');
  assert.ok(!shown.body.includes('Bertil'), shown.body);
  assert.deepEqual((await server.app.store.get(id))?.setup.seats, [{ kind: 'person' }, { kind: 'person' }], 'stored so too');
  const taken = await call('POST', `/api/games/${id}/seats`, cy.cookie, { name: 'Cosima' });
  assert.equal(taken.statusCode, 201, taken.body);
  assert.equal(taken.json().seat, 1);
  assert.equal((await call('GET', `/api/games/${id}`)).json().status, 'playing');
});

test("your games: turn-based games with whose turn it is and the time left, the player's turns first", async () => {
  const dee = await guest('Deirdre');
  const eli = await guest('Elias');
  const ids: string[] = [];
  for (const moveDays of [7, 1, 3]) {
    const made = await call('POST', '/api/games', dee.cookie, { seats: people(undefined, 'Elias'), pace: { kind: 'turnBased', moveDays } });
    ids.push(made.json().id);
    await call('POST', `/api/games/${made.json().id}/seats`, dee.cookie, { name: 'Deirdre' });
    await call('POST', `/api/games/${made.json().id}/seats`, eli.cookie, { name: 'Elias' });
  }
  // Deirdre moves in the 3-day game: it is Elias's turn there.
  const room = await server.app.games.room(ids[2]);
  assert.ok(room);
  assert.ok(!('error' in (await room.play(0, legalMoves(room.state)[0], 0))));
  const live = await call('POST', '/api/games', dee.cookie, { seats: people(undefined, undefined) });
  await call('POST', `/api/games/${live.json().id}/seats`, dee.cookie, { name: 'Deirdre' });

  const list = (await call('GET', '/api/me/games', dee.cookie)).json().games;
  const byId = new Map(list.map((g: any) => [g.id, g]));
  assert.deepEqual(
    list.slice(0, 2).map((g: any) => g.id),
    [ids[1], ids[0]],
    'her turns first, the soonest deadline first (1 day before 7 days)',
  );
  const threeDays = byId.get(ids[2]) as any;
  assert.deepEqual([threeDays.yourTurn, threeDays.currentSeat, threeDays.pace], [false, 1, { kind: 'turnBased', moveDays: 3 }]);
  assert.ok(Math.abs(threeDays.deadline - (Date.now() + 3 * DAY)) < 60_000, 'Elias has three days');
  const oneDay = byId.get(ids[1]) as any;
  assert.equal(oneDay.yourTurn, true);
  assert.ok(Math.abs(oneDay.deadline - (Date.now() + DAY)) < 60_000);
  const waiting = byId.get(live.json().id) as any;
  assert.deepEqual([waiting.currentSeat, waiting.yourTurn, waiting.pace, waiting.deadline], [undefined, undefined, undefined, undefined], 'a live game: as before, its table says whose turn it is');
  assert.ok(list.findIndex((g: any) => g.id === waiting.id) >= 2, 'after the games where it is her turn');
  const elias = (await call('GET', '/api/me/games', eli.cookie)).json().games;
  assert.equal(elias[0].id, ids[2], "Elias's turn first in his list");
});

test('whose turn it is, from the record alone, is the replay’s', () => {
  for (const seats of [2, 3, 5]) {
    for (let seed = 1; seed <= 3; seed++) {
      const state = newGame({ players: seats, seed: `s${seed}`, rules: { river: seed === 2, tinyCity: false, farmers: '3rd' } });
      const moves = randomRecordMoves(state, seed, 40 + seed * 7);
      const replayed = replayRecord({
        format: 'tessera-game/1',
        players: Array.from({ length: seats }, (_, i) => `p${i}`),
        seed: `s${seed}`,
        rules: { river: seed === 2, tinyCity: false, farmers: '3rd' },
        moves,
      });
      assert.equal(seatToMove(moves, seats, false), replayed.state.currentPlayer, `${seats} seats, seed ${seed}`);
    }
  }
  assert.equal(seatToMove([], 3, true), null);
});
