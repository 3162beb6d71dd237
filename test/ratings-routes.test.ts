// Rated games through the real app (app.inject, the default SQLite store, the real pool): seats
// only for players, no hints, the result moving ratings once when the game ends, the leaderboard,
// the ratings beside names and a player's history; an expired rated game ranks the person whose
// turn it was last.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Room } from '../server/games/room.ts';
import { RATINGS_PER_CALL } from '../server/wire/limits.ts';
import { Client, injectServer, playTurns, playUntilOver, WAIT } from './server-helpers.ts';

let app: FastifyInstance;
before(async () => {
  ({ app } = await injectServer());
});
after(() => app.close());

function call(method: 'GET' | 'POST', url: string, cookie?: string, body?: unknown): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  return app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
}

async function guest(name: string): Promise<{ cookie: string; id: string }> {
  const res = await call('POST', '/api/session', undefined, { name });
  assert.equal(res.statusCode, 201, res.body);
  const set = res.cookies.find((c) => c.name === 'tessera_session')!;
  return { cookie: `tessera_session=${set.value}`, id: res.json().player.id };
}

const ratedGame = async (): Promise<string> => {
  const res = await call('POST', '/api/games', undefined, { seats: [{ kind: 'person' }, { kind: 'person' }, { kind: 'bot', level: 'random' }], rated: true });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(res.json().rated, true);
  return res.json().id;
};

async function seatAll(id: string, players: { cookie: string }[]): Promise<Map<number, Client>> {
  const clients = new Map<number, Client>();
  for (const p of players) {
    const taken = await call('POST', `/api/games/${id}/seats`, p.cookie, { name: 'ignored' });
    assert.equal(taken.statusCode, 201, taken.body);
    clients.set(taken.json().seat, await Client.join(app, id, taken.json().token));
  }
  return clients;
}

test('a rated game: seats for players only, no hints; its end moves every rating once', async () => {
  const ann = await guest('Rated Ann');
  const bo = await guest('Rated Bo');
  const hinted = await call('POST', '/api/games', undefined, { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }], rated: true, hints: true });
  assert.equal(hinted.statusCode, 400);
  const id = await ratedGame();
  const anonymous = await call('POST', `/api/games/${id}/seats`, undefined, { name: 'Nobody' });
  assert.equal(anonymous.statusCode, 403);
  assert.equal(anonymous.json().code, 'sign_in_required');
  const clients = await seatAll(id, [ann, bo]);
  const final = await playUntilOver(clients);
  for (const c of clients.values()) c.close();
  assert.equal(final.rated, true);
  assert.deepEqual(
    final.seats.map((s: { playerId: string }) => s.playerId),
    [ann.id, bo.id, 'bot:random'],
  );
  const scores: number[] = final.seats.map((s: { score: number }) => s.score);
  const answer = (await call('GET', `/api/ratings?players=${ann.id},${bo.id},bot:random,bot:expert`)).json();
  assert.deepEqual(
    answer.ratings.map((r: { playerId: string; games: number; provisional: boolean }) => [r.playerId, r.games, r.provisional]),
    [
      [ann.id, 1, true],
      [bo.id, 1, true],
      ['bot:random', 1, true],
    ],
    'every seat rated once; a level that did not play has no rating',
  );
  // The best score gains the most: its rating is the highest shown.
  const best = scores.indexOf(Math.max(...scores));
  const shown = answer.ratings.map((r: { rating: number }) => r.rating);
  if (scores.filter((s) => s === scores[best]).length === 1) assert.equal(shown.indexOf(Math.max(...shown)), best);
  const board = (await call('GET', '/api/leaderboard')).json();
  assert.deepEqual(
    board.players.map((p: { place: number }) => p.place),
    [1, 2, 3],
  );
  assert.ok(board.players.some((p: { name: string; bot: boolean }) => p.name === 'random bot' && p.bot));
  // A bot level has a profile too, named as on the leaderboard, with the rated game it played.
  const bot = (await call('GET', '/api/players/bot:random/profile')).json();
  assert.deepEqual([bot.name, bot.recent.map((g: { id: string }) => g.id)], ['random bot', [id]]);
  const history = (await call('GET', `/api/players/${ann.id}/ratings`)).json();
  assert.deepEqual(
    history.changes.map((c: { gameId: string; before: number }) => [c.gameId, c.before]),
    [[id, 1000]],
  );
  assert.equal((await call('GET', '/api/ratings?players=Ann')).statusCode, 400);
  // As many ids as a call answers, and one more.
  // Distinct ids: the route counts each once.
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `p_${String(i).padStart(22, 'A')}`).join(',');
  assert.equal((await call('GET', `/api/ratings?players=${ids(RATINGS_PER_CALL)}`)).statusCode, 200);
  const tooMany = await call('GET', `/api/ratings?players=${ids(RATINGS_PER_CALL + 1)}`);
  assert.deepEqual([tooMany.statusCode, tooMany.json().code], [400, 'bad_request']);
});

test('an expired rated game: the person whose turn it was places last', async (t) => {
  const cy = await guest('Rated Cy');
  const di = await guest('Rated Di');
  const id = await ratedGame();
  const clients = await seatAll(id, [cy, di]);
  await playTurns(clients, 4);
  for (const c of clients.values()) c.close();
  const room = (await app.games.get(id)) as Room;
  // The bot plays its turn; then a person's turn waits for someone who left.
  await t.waitFor(() => {
    const view = room.view(null);
    assert.ok(view.currentSeat !== null && view.currentSeat < 2 && !view.botThinking);
  }, WAIT);
  const onTurn = room.view(null).currentSeat!;
  assert.equal(await room.abandon('expired (test)'), true);
  const ids = [cy.id, di.id];
  for (const [seat, playerId] of ids.entries()) {
    const [change] = (await call('GET', `/api/players/${playerId}/ratings`)).json().changes;
    if (seat === onTurn) assert.equal(change.rank, 3, 'the person on turn let it expire: last');
    else assert.ok(change.rank <= 2);
  }
});
