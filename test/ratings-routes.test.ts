// Rated games through the real app (app.inject, the default SQLite store, the real pool): seats
// only for players (between people, players with a passkey), no hints, the result moving ratings
// once when the game ends, the leaderboard, the ratings beside names and a player's history; an
// expired rated game ranks the person whose turn it was last, and of two who left, the first last.
// Self-play from one address reaches neither the leaderboard nor a place above a bot.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Room } from '../server/games/room.ts';
import { abandonAt } from '../server/games/table.ts';
import { PAIR_GAMES_PER_DAY } from '../server/ratings/model.ts';
import { player } from './support/passkey-player.ts';
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

const guest = (name: string) => player(app, name, false);
const keyholder = (name: string) => player(app, name);

type Seat = { kind: 'person' } | { kind: 'bot'; level: string };
const PAIR_AND_BOT: Seat[] = [{ kind: 'person' }, { kind: 'person' }, { kind: 'bot', level: 'random' }];

const ratedGame = async (seats: Seat[] = PAIR_AND_BOT, clock?: { graceSeconds: number }): Promise<string> => {
  const res = await call('POST', '/api/games', undefined, { seats, rated: true, ...(clock ? { clock } : {}) });
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

test('a rated game: seats for players only (between people, with a passkey), no hints; its end moves every rating once', async () => {
  const ann = await keyholder('Rated Ann');
  const bo = await keyholder('Rated Bo');
  const hinted = await call('POST', '/api/games', undefined, { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }], rated: true, hints: true });
  assert.equal(hinted.statusCode, 400);
  const id = await ratedGame();
  const anonymous = await call('POST', `/api/games/${id}/seats`, undefined, { name: 'Nobody' });
  assert.equal(anonymous.statusCode, 403);
  assert.equal(anonymous.json().code, 'sign_in_required');
  const bare = await call('POST', `/api/games/${id}/seats`, (await guest('Rated Guest')).cookie, { name: 'ignored' });
  assert.deepEqual([bare.statusCode, bare.json().code], [403, 'passkey_required'], 'a guest plays rated games against bots only');
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
    board.players.map((p: { place: number; name: string; bot: boolean }) => [p.place, p.name, p.bot]),
    [[1, 'random bot', true]],
    'one game: the people are provisional, off the leaderboard; the bot level is listed',
  );
  assert.deepEqual(board.requires, { games: 5, opponents: 3, activeDays: 30 });
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
  const cy = await keyholder('Rated Cy');
  const di = await keyholder('Rated Di');
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

/** Waits until the room has a person's turn with no bot thinking, and returns the view. */
async function settled(t: { waitFor: (f: () => void, o: typeof WAIT) => Promise<unknown> }, room: Room) {
  await t.waitFor(() => {
    const view = room.view(null);
    assert.ok(view.currentSeat !== null && room.setup.seats[view.currentSeat].kind === 'person' && !view.botThinking);
  }, WAIT);
  return room.view(null);
}

test('of two people who leave a rated game, the first to leave places last: the one behind leaves on the other’s turn, the other within the grace period', async (t) => {
  const el = await keyholder('Leaving El');
  const fay = await keyholder('Leaving Fay');
  const id = await ratedGame([{ kind: 'person' }, { kind: 'person' }], { graceSeconds: 1 });
  const clients = await seatAll(id, [el, fay]);
  const room = (await app.games.get(id)) as Room;
  // Play on until one is behind (the score as it would stand at an abandon) and it is the other's turn.
  let view = await playTurns(clients, 6);
  let behind = -1;
  for (let i = 0; i < 40; i++) {
    view = await settled(t, room);
    const scores = abandonAt(room.setup, room.state).end.scores!;
    if (scores[0] !== scores[1] && view.currentSeat === scores.indexOf(Math.max(...scores))) {
      behind = scores.indexOf(Math.min(...scores));
      break;
    }
    // The previous call read the frames so far: each client asks for its view again.
    for (const c of clients.values()) c.send({ type: 'sync' });
    await playTurns(clients, view.turn + 1);
  }
  assert.ok(behind >= 0, 'a position with one player behind, on the other’s turn');
  const ahead = 1 - behind;
  // The one behind leaves on the other's turn; the other leaves within the grace period.
  clients.get(behind)!.close();
  await t.waitFor(() => assert.equal(room.view(null).seats[behind].connected, false), WAIT);
  clients.get(ahead)!.close();
  await t.waitFor(
    () =>
      assert.deepEqual(
        room.view(null).seats.map((s) => s.standIn),
        ['away', 'away'],
      ),
    WAIT,
  );
  assert.equal(await room.abandon('expired (test)'), true);
  const [first, second] = await Promise.all([el, fay].map(async (p) => (await call('GET', `/api/players/${p.id}/ratings`)).json().changes[0]));
  const byLeaving = behind === 0 ? [first, second] : [second, first];
  assert.deepEqual(
    byLeaving.map((c) => c.rank),
    [2, 1],
    'the first to leave (behind) places last, the one who stayed longer first',
  );
  assert.ok(byLeaving[0].after < byLeaving[0].before, 'leaving first loses rating');
  t.diagnostic(`first to leave ${byLeaving[0].before} → ${byLeaving[0].after}; second ${byLeaving[1].before} → ${byLeaving[1].after}`);
});

test(`self-play: two players from one address, 6 rated games against each other: ${PAIR_GAMES_PER_DAY} move ratings, nobody reaches the leaderboard or a place above the expert bot`, async (t) => {
  // A guest plays the expert bot, rated, and lets the game expire on their turn: the expert is rated.
  const solo = await guest('Solo Guest');
  const vsExpert = await ratedGame([{ kind: 'person' }, { kind: 'bot', level: 'expert' }]);
  const soloClient = (await seatAll(vsExpert, [solo])).get(0)!;
  const expertRoom = (await app.games.get(vsExpert)) as Room;
  await settled(t, expertRoom);
  soloClient.close();
  assert.equal(await expertRoom.abandon('expired (test)'), true);
  // Two guests may not play each other rated.
  const guests = await Promise.all([guest('Farm Guest A'), guest('Farm Guest B')]);
  const refused = await call('POST', `/api/games/${await ratedGame([{ kind: 'person' }, { kind: 'person' }])}/seats`, guests[0].cookie, { name: 'x' });
  assert.deepEqual([refused.statusCode, refused.json().code], [403, 'passkey_required']);
  // Two players with passkeys (one person, two browsers) play six rated games against each other.
  const pair = [await keyholder('Farm Gil'), await keyholder('Farm Hal')];
  const wins = [0, 0];
  for (let i = 0; i < 6; i++) {
    const clients = await seatAll(await ratedGame([{ kind: 'person' }, { kind: 'person' }]), pair);
    const final = await playUntilOver(clients);
    for (const c of clients.values()) c.close();
    const scores: number[] = final.seats.map((s: { score: number }) => s.score);
    if (scores[0] !== scores[1]) wins[scores.indexOf(Math.max(...scores))]++;
  }
  const ratings = (await call('GET', `/api/ratings?players=${pair.map((p) => p.id).join(',')},bot:expert`)).json().ratings;
  const of = (id: string) => ratings.find((r: { playerId: string }) => r.playerId === id);
  for (const p of pair) assert.deepEqual([of(p.id).games, of(p.id).opponents, of(p.id).provisional], [PAIR_GAMES_PER_DAY, 1, true], 'the pair’s games beyond the day’s limit move nothing');
  const board = (await call('GET', '/api/leaderboard')).json().players;
  assert.deepEqual(
    board.filter((p: { bot: boolean }) => !p.bot),
    [],
    'nobody from the pair is listed',
  );
  assert.ok(board.some((p: { playerId: string }) => p.playerId === 'bot:expert'));
  t.diagnostic(`wins ${wins}; shown ${pair.map((p) => of(p.id).rating)}; expert ${of('bot:expert').rating}`);
});
