// Names that cannot impersonate, through the real app (app.inject): every name a person types, a
// player's (POST /api/session, PATCH /api/me) or a seat's (POST /api/games/:id/seats), is checked by
// one rule: no invisible characters, nothing that reads as a bot or a seat the server names, and
// no name that looks like another (UTS #39 skeleton, case folded) beside it: among players, among
// a game's seats, and a typed seat name against every player. A seat held under a typed name is
// marked `guest` in every view.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Client, type Injected, injectServer } from './server-helpers.ts';

let server: Injected;
let app: FastifyInstance;
before(async () => {
  server = await injectServer({ createsPerMinute: 1000 });
  app = server.app;
});
after(() => app.close());

function call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, cookie?: string): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: JSON.stringify(body) }) });
}

async function player(name?: string): Promise<{ cookie: string; id: string; name: string }> {
  const res = await call('POST', '/api/session', name === undefined ? {} : { name });
  assert.equal(res.statusCode, 201, res.body);
  const set = res.cookies.find((c) => c.name === 'tessera_session');
  assert.ok(set);
  return { cookie: `tessera_session=${set.value}`, id: res.json().player.id, name: res.json().player.name };
}

async function newGame(seats: { kind: 'person' | 'bot'; level?: string }[]): Promise<string> {
  const res = await call('POST', '/api/games', { seats });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id;
}

const people = (n: number) => Array.from({ length: n }, () => ({ kind: 'person' as const }));

function refused(res: LightMyRequestResponse, code: 'name_invalid' | 'name_taken', what: string): void {
  assert.equal(res.statusCode, code === 'name_invalid' ? 400 : 409, `${what}: ${res.body}`);
  assert.equal(res.json().code, code, what);
}

// Each one was accepted before: fillers and other characters that show nothing, and names that
// read as a bot, as a bot's seat or name in the client, or as a seat the server names.
const INVALID: [string, string][] = [
  ['Alice\u3164', 'ends in U+3164, the Hangul filler'],
  ['\u3164', 'U+3164 alone'],
  ['\u115fAlice', 'U+115F Hangul choseong filler'],
  ['Alice\u1160', 'U+1160 Hangul jungseong filler'],
  ['Alice\uffa0', 'U+FFA0 half-width Hangul filler'],
  ['Alice\ufe0f', 'variation selector 16'],
  ['Ali\u034fce', 'U+034F combining grapheme joiner'],
  ['Alice\u{e0100}', 'variation selector 17'],
  ['AliceBOT', '…BOT without a separator'],
  ['Alice_bot', '…_bot'],
  ['B0T Alice', 'bot… with a zero'],
  ['random bot 2', "a bot's seat name"],
  ['Bertha', "the client's name for a bot"],
  ['Deleted-Player', "a deleted player's seat name, with a hyphen"],
  ['open seat 2', 'a placeholder for an open seat'],
];

for (const [name, what] of INVALID) {
  test(`name_invalid for a player name and a typed seat name: ${what}`, async () => {
    refused(await call('POST', '/api/session', { name }), 'name_invalid', `new player ${what}`);
    const someone = await player();
    refused(await call('PATCH', '/api/me', { name }, someone.cookie), 'name_invalid', `rename to ${what}`);
    assert.equal((await call('GET', '/api/session', undefined, someone.cookie)).json().player.name, someone.name, 'the name is unchanged');
    const id = await newGame(people(2));
    refused(await call('POST', `/api/games/${id}/seats`, { name }), 'name_invalid', `seat ${what}`);
    assert.deepEqual((await call('GET', `/api/games/${id}`)).json().openSeats, [0, 1], 'no seat taken');
  });
}

test('name_taken: a player name that differs from another only by look-alikes (capital i, digit one) is taken', async () => {
  await player('Alice');
  for (const name of ['AIice', 'A1ice', '\u0410lice', 'ALICE']) {
    refused(await call('POST', '/api/session', { name }), 'name_taken', name);
    const someone = await player();
    refused(await call('PATCH', '/api/me', { name }, someone.cookie), 'name_taken', `rename to ${name}`);
  }
});

test('name_taken: two seats of one game may not have names that look the same (Cyrillic A, capital i, case)', async () => {
  const id = await newGame(people(3));
  assert.equal((await call('POST', `/api/games/${id}/seats`, { name: 'Annabel' })).statusCode, 201);
  for (const name of ['\u0410nnabel', 'AnnabeI', 'Annabe1', 'ANNABEL']) refused(await call('POST', `/api/games/${id}/seats`, { name }), 'name_taken', name);
  assert.deepEqual((await call('GET', `/api/games/${id}`)).json().openSeats, [1, 2], 'no seat taken');
});

test('name_taken: a seat name typed without signing in may not look like a registered player’s name', async () => {
  await player('Bartholomew');
  const id = await newGame(people(2));
  for (const name of ['Bartholomew', 'B\u0430rtholomew', 'BARTHOLOMEW', 'BartholOmew']) refused(await call('POST', `/api/games/${id}/seats`, { name }), 'name_taken', name);
  assert.deepEqual((await call('GET', `/api/games/${id}`)).json().openSeats, [0, 1], 'no seat taken');
});

test('name_taken: a signed-in player may not sit beside a typed seat whose name looks like theirs', async () => {
  const id = await newGame(people(2));
  // The seat was typed before the player took the name.
  assert.equal((await call('POST', `/api/games/${id}/seats`, { name: 'Cornelius' })).statusCode, 201);
  const cornelius = await player('CORNELIUS');
  refused(await call('POST', `/api/games/${id}/seats`, { name: 'ignored' }, cornelius.cookie), 'name_taken', 'signed in as CORNELIUS');
  assert.deepEqual((await call('GET', `/api/games/${id}`)).json().openSeats, [1]);
});

test('a seat held under a typed name is marked guest in the summary and in the WebSocket view; signed-in and bot seats are not', async () => {
  const signed = await player('Signed Sitter');
  const id = await newGame([{ kind: 'person' }, { kind: 'person' }, { kind: 'bot', level: 'random' }]);
  const typed = (await call('POST', `/api/games/${id}/seats`, { name: 'Typed Sitter', seat: 0 })).json();
  assert.equal((await call('POST', `/api/games/${id}/seats`, { name: 'x', seat: 1 }, signed.cookie)).statusCode, 201);
  const marks = (seats: { name: string; guest?: boolean }[]) => seats.map((s) => [s.name, s.guest ?? false]);
  const expected = [
    ['Typed Sitter', true],
    ['Signed Sitter', false],
    ['random bot 3', false],
  ];
  assert.deepEqual(marks((await call('GET', `/api/games/${id}`)).json().seats), expected);
  const client = await Client.join(server.ws, id, typed.token);
  assert.deepEqual(marks((await client.peekState()).view.seats), expected);
  client.close();
});
