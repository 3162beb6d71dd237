// The player API through the real app (app.inject): the guest session cookie, names (unique,
// confusables folded), the Origin check on cookie-carried changes, rate limits, passkey option
// routes and refused answers, deleting a player, the player's games, and a signed-in player
// playing their seat over the WebSocket from a second, cookie-only client.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Client, type Injected, injectServer, startServer, testConfig, twoPeopleSetup } from './server-helpers.ts';
import { once } from 'node:events';
import { WebSocket as WsSocket } from 'ws';
import { loadConfig } from '../server/config.ts';
import { hashToken } from '../server/games/seats.ts';
import { DELETED_NAME } from '../server/players/names.ts';
import { sqliteBackend } from '../server/storage/sqlite/backend.ts';
import { newSessionId, sessionHash } from '../server/players/store.ts';
import type { SqliteStore } from '../server/storage/sqlite/games.ts';
import { SoftAuthenticator } from './support/soft-authenticator.ts';

let server: Injected;
let app: FastifyInstance;
before(async () => {
  server = await injectServer({ createsPerMinute: 1000 });
  app = server.app;
});
after(() => app.close());

const OWN = 'http://localhost:80';
const DAY = 86_400_000;

interface Call {
  cookie?: string;
  origin?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

function call(to: FastifyInstance, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, c: Call = {}): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...c.headers };
  if (c.cookie) headers.cookie = c.cookie;
  if (c.origin) headers.origin = c.origin;
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  return to.inject({ method, url, headers, ...(c.body === undefined ? {} : { payload: JSON.stringify(c.body) }) });
}

/** The session cookie a reply set, as a browser would send it back. */
function cookieOf(res: LightMyRequestResponse): string {
  const set = res.cookies.find((c) => c.name === 'tessera_session');
  assert.ok(set, 'a session cookie is set');
  return `tessera_session=${set.value}`;
}

async function guest(to: FastifyInstance, name?: string): Promise<{ cookie: string; id: string; name: string }> {
  const res = await call(to, 'POST', '/api/session', { body: name === undefined ? {} : { name } });
  assert.equal(res.statusCode, 201, res.body);
  const { player } = res.json();
  return { cookie: cookieOf(res), id: player.id, name: player.name };
}

test('a visitor becomes a guest player at once: an HttpOnly, SameSite=Lax cookie that keeps the player', async () => {
  assert.deepEqual((await call(app, 'GET', '/api/session')).json(), { player: null });
  const res = await call(app, 'POST', '/api/session');
  assert.equal(res.statusCode, 201, 'no body needed');
  const { player } = res.json();
  assert.match(player.id, /^p_[A-Za-z0-9_-]{22}$/);
  assert.match(player.name, /^Guest \d{6}$/);
  assert.equal(player.passkeys, 0);
  const set = res.cookies.find((c) => c.name === 'tessera_session');
  assert.ok(set?.httpOnly && set.sameSite === 'Lax' && set.path === '/' && !set.secure, JSON.stringify(set));
  const cookie = cookieOf(res);
  assert.deepEqual((await call(app, 'GET', '/api/session', { cookie })).json(), { player });
  const again = await call(app, 'POST', '/api/session', { cookie, body: {} });
  assert.equal(again.statusCode, 200, 'already signed in: the same player');
  assert.deepEqual(again.json(), { player });
  assert.equal(again.cookies.length, 0);
  assert.deepEqual((await call(app, 'GET', '/api/session', { cookie: 'tessera_session=forged' })).json(), { player: null });
});

test('names are unique with case, width and look-alike letters folded; a refused name changes nothing', async () => {
  const alice = await guest(app, 'Alice');
  const taken = await call(app, 'POST', '/api/session', { body: { name: 'ＡＬＩＣＥ' } });
  assert.equal(taken.statusCode, 409);
  assert.equal(taken.json().code, 'name_taken');
  assert.equal(taken.cookies.length, 0, 'no session for a refused guest');
  const bob = await guest(app);
  const confusable = await call(app, 'PATCH', '/api/me', { cookie: bob.cookie, origin: OWN, body: { name: '\u0410lice' } });
  assert.equal(confusable.json().code, 'name_taken', 'Cyrillic А');
  const invalid = await call(app, 'PATCH', '/api/me', { cookie: bob.cookie, body: { name: 'Expert bot' } });
  assert.equal(invalid.statusCode, 400);
  assert.equal(invalid.json().code, 'name_invalid');
  assert.equal((await call(app, 'GET', '/api/session', { cookie: bob.cookie })).json().player.name, bob.name);
  const renamed = await call(app, 'PATCH', '/api/me', { cookie: bob.cookie, body: { name: '  Bobby  Tables ' } });
  assert.equal(renamed.statusCode, 200);
  assert.equal(renamed.json().name, 'Bobby Tables');
  assert.equal((await call(app, 'PATCH', '/api/me', { cookie: alice.cookie, body: { name: 'alice' } })).statusCode, 200, 'the case of one’s own name');
  assert.equal((await call(app, 'PATCH', '/api/me', { body: { name: 'Carol' } })).json().code, 'not_signed_in');
});

test('a change carried by the cookie from another site is refused and changes nothing; without the cookie, nothing is asked', async () => {
  const p = await guest(app, 'Origin Test');
  for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }] as Record<string, string>[]) {
    const res = await call(app, 'PATCH', '/api/me', { cookie: p.cookie, headers, body: { name: 'Hijacked' } });
    assert.equal(res.statusCode, 403, JSON.stringify(headers));
    assert.equal(res.json().code, 'cross_origin');
  }
  assert.equal((await call(app, 'DELETE', '/api/me', { cookie: p.cookie, origin: 'https://evil.example' })).statusCode, 403);
  assert.equal((await call(app, 'GET', '/api/session', { cookie: p.cookie })).json().player.name, 'Origin Test');
  assert.equal((await call(app, 'PATCH', '/api/me', { cookie: p.cookie, origin: OWN, headers: { 'sec-fetch-site': 'same-origin' }, body: { name: 'Origin Ok' } })).statusCode, 200);
  // Reads are not changes, and seat tokens (no cookie) work from anywhere as before.
  assert.equal((await call(app, 'GET', '/api/session', { cookie: p.cookie, origin: 'https://evil.example' })).statusCode, 200);
  const game = await call(app, 'POST', '/api/games', { origin: 'https://evil.example', body: { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }] } });
  assert.equal(game.statusCode, 201);
});

test('session creation and the passkey routes are rate-limited per address', async () => {
  const limited = await injectServer({ createsPerMinute: 3 });
  try {
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await call(limited.app, 'POST', '/api/session', { body: {} })).statusCode);
    assert.deepEqual(codes, [201, 201, 201, 429]);
    const signIn = [];
    for (let i = 0; i < 4; i++) signIn.push((await call(limited.app, 'POST', '/api/passkeys/authentication/options')).statusCode);
    assert.deepEqual(signIn, [200, 200, 200, 429]);
  } finally {
    await limited.app.close();
  }
});

test('passkey options suit @simplewebauthn/browser; a bad answer is refused the same way whatever is wrong, and changes nothing', async () => {
  const p = await guest(app, 'Keyholder');
  assert.equal((await call(app, 'POST', '/api/passkeys/registration/options')).json().code, 'not_signed_in');
  const reg = await call(app, 'POST', '/api/passkeys/registration/options', { cookie: p.cookie });
  assert.equal(reg.statusCode, 200);
  const options = reg.json();
  assert.equal(options.rp.id, 'localhost');
  assert.equal(options.user.name, 'Keyholder');
  assert.equal(Buffer.from(options.user.id, 'base64url').toString(), p.id);
  assert.equal(options.authenticatorSelection.residentKey, 'required');
  assert.ok(options.challenge.length >= 32);
  const auth = (await call(app, 'POST', '/api/passkeys/authentication/options')).json();
  assert.ok(auth.challenge && auth.rpId === 'localhost' && (auth.allowCredentials ?? []).length === 0, 'discoverable: no name, no credential list');

  const clientData = (type: string, challenge: string) => Buffer.from(JSON.stringify({ type, challenge, origin: OWN })).toString('base64url');
  const answer = (type: string, challenge: string, id = 'AAAA') => ({
    id,
    rawId: id,
    type: 'public-key',
    response: { clientDataJSON: clientData(type, challenge), attestationObject: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
    clientExtensionResults: {},
  });
  const refusals = [
    await call(app, 'POST', '/api/passkeys/registration', { cookie: p.cookie, body: answer('webauthn.create', options.challenge) }),
    await call(app, 'POST', '/api/passkeys/registration', { cookie: p.cookie, body: answer('webauthn.create', options.challenge) }),
    await call(app, 'POST', '/api/passkeys/authentication', { cookie: p.cookie, body: answer('webauthn.get', auth.challenge) }),
    await call(app, 'POST', '/api/passkeys/authentication', { body: answer('webauthn.get', 'never-issued', 'unknown-credential') }),
  ];
  for (const res of refusals) {
    assert.equal(res.statusCode, 401, res.body);
    assert.deepEqual(res.json(), { statusCode: 401, code: 'passkey_refused', message: 'the passkey could not be verified: nothing changed' });
    assert.equal(res.cookies.length, 0);
  }
  assert.deepEqual((await call(app, 'GET', '/api/session', { cookie: p.cookie })).json(), { player: { id: p.id, name: 'Keyholder', passkeys: 0 } });
  const malformed = await call(app, 'POST', '/api/passkeys/authentication', { body: { id: 'x' } });
  assert.equal(malformed.json().code, 'bad_request');
});

test('a Host header that names no host is a bad request on every passkey route, not a server failure', async () => {
  const p = await guest(app, 'Hostless');
  for (const host of ['a b', '[', '%', 'x:99999']) {
    const calls = [call(app, 'POST', '/api/passkeys/authentication/options', { headers: { host } }), call(app, 'POST', '/api/passkeys/registration/options', { cookie: p.cookie, headers: { host } })];
    for (const res of await Promise.all(calls)) {
      assert.equal(res.statusCode, 400, `${host}: ${res.body}`);
      assert.equal(res.json().code, 'bad_request');
      assert.match(res.json().message, /Host header/);
    }
  }
  assert.deepEqual((await call(app, 'GET', '/api/session', { cookie: p.cookie })).json().player.passkeys, 0, 'nothing changed');
});

test("seats taken while signed in are the player's: named after the player, listed in their games, playable from another client by the cookie alone", async () => {
  const p = await guest(app, 'Seat Owner');
  const other = await guest(app, 'Someone Else');
  const created = (await call(app, 'POST', '/api/games', { body: { seats: [{ kind: 'person' }, { kind: 'person' }] } })).json();
  const mine = await call(app, 'POST', `/api/games/${created.id}/seats`, { cookie: p.cookie, body: { name: 'ignored', seat: 1 } });
  assert.equal(mine.statusCode, 201);
  const { token } = mine.json();
  const anon = (await call(app, 'POST', `/api/games/${created.id}/seats`, { body: { name: 'Token Only' } })).json();
  const summary = (await call(app, 'GET', `/api/games/${created.id}`)).json();
  assert.deepEqual(
    summary.seats.map((s: { name: string }) => s.name),
    ['Token Only', 'Seat Owner'],
  );
  const games = (await call(app, 'GET', '/api/me/games', { cookie: p.cookie })).json();
  assert.deepEqual(games, { games: [{ id: created.id, createdAt: created.createdAt, finishedAt: null, seats: ['Token Only', 'Seat Owner'], mySeats: [1], rated: false }], next: null });
  assert.deepEqual((await call(app, 'GET', '/api/me/games', { cookie: other.cookie })).json(), { games: [], next: null });
  assert.equal((await call(app, 'GET', '/api/me/games?finished=true', { cookie: p.cookie })).json().games.length, 0);

  // A second client with the cookie and no token plays seat 1; the token still works; a stranger watches.
  const byCookie = await Client.connect(server.ws, { cookie: p.cookie });
  await byCookie.hello(created.id);
  assert.equal(byCookie.welcome.seat, 1);
  const byToken = await Client.join(server.ws, created.id, token);
  assert.equal(byToken.welcome.seat, 1);
  const stranger = await Client.connect(server.ws, { cookie: other.cookie });
  await stranger.hello(created.id);
  assert.equal(stranger.welcome.seat, null);
  await assert.rejects(() => Client.connect(server.ws, { cookie: p.cookie, origin: 'https://evil.example' }), /403/, 'another site’s page cannot open the socket');
  const anonClient = await Client.join(server.ws, created.id, anon.token);
  assert.equal(anonClient.welcome.seat, 0);
  for (const c of [byCookie, byToken, stranger, anonClient]) c.close();
});

test('deleting a player ends their sessions, frees the name and renames their seats, in the store and in the games held; other seats stay', async () => {
  const p = await guest(app, 'Leaving Soon');
  const stays = await guest(app, 'Staying');
  const created = (await call(app, 'POST', '/api/games', { body: { seats: [{ kind: 'person' }, { kind: 'person' }] } })).json();
  await call(app, 'POST', `/api/games/${created.id}/seats`, { cookie: p.cookie, body: { name: 'x' } });
  await call(app, 'POST', `/api/games/${created.id}/seats`, { cookie: stays.cookie, body: { name: 'x' } });
  const gone = await call(app, 'DELETE', '/api/me', { cookie: p.cookie, origin: OWN });
  assert.equal(gone.statusCode, 204);
  assert.equal(gone.cookies.find((c) => c.name === 'tessera_session')?.value, '', 'the cookie is cleared');
  assert.deepEqual((await call(app, 'GET', '/api/session', { cookie: p.cookie })).json(), { player: null });
  const stored = await app.store.get(created.id);
  assert.deepEqual(
    stored?.holders.map((h) => [h?.name, h?.playerId]),
    [
      [DELETED_NAME, undefined],
      ['Staying', stays.id],
    ],
  );
  // The game being played here shows it at once, not after its next load.
  assert.deepEqual(
    (await call(app, 'GET', `/api/games/${created.id}`)).json().seats.map((s: { name: string; playerId?: string }) => [s.name, s.playerId]),
    [
      [DELETED_NAME, undefined],
      ['Staying', stays.id],
    ],
  );
  assert.equal((await call(app, 'DELETE', '/api/me', { cookie: p.cookie })).json().code, 'not_signed_in');
  await guest(app, 'leaving soon');
});

test('renaming is rate-limited per address like creating a player: its answers tell which names are taken', async () => {
  const limited = await injectServer({ createsPerMinute: 3 });
  try {
    const p = await guest(limited.app);
    const codes = [];
    for (const name of ['Rena One', 'Rena Two', 'Rena Three', 'Rena Four']) codes.push((await call(limited.app, 'PATCH', '/api/me', { cookie: p.cookie, body: { name } })).statusCode);
    assert.deepEqual(codes, [200, 200, 200, 429]);
    assert.equal((await call(limited.app, 'GET', '/api/session', { cookie: p.cookie })).json().player.name, 'Rena Three', 'a refused rename changes nothing');
  } finally {
    await limited.app.close();
  }
});

test('new guests are still made when every six-digit guest name is held (900,000 players stored directly)', async () => {
  const own = await injectServer();
  try {
    const db = (own.app.store as SqliteStore).database;
    db.exec(`WITH RECURSIVE n(i) AS (SELECT 100000 UNION ALL SELECT i + 1 FROM n WHERE i < 999999)
             INSERT INTO players (id, name, name_key, created_at) SELECT 'p_held' || i, 'Guest ' || i, 'guest ' || i, '2026-01-01T00:00:00.000Z' FROM n`);
    assert.equal((db.prepare('SELECT count(*) AS n FROM players').get() as { n: number }).n, 900_000);
    for (let i = 0; i < 3; i++) {
      const p = await guest(own.app);
      assert.match(p.name, /^Guest \d{6}$/);
      assert.equal((await call(own.app, 'GET', '/api/session', { cookie: p.cookie })).json().player.id, p.id);
    }
    const chosen = await call(own.app, 'POST', '/api/session', { body: { name: 'Guest 123456' } });
    assert.equal(chosen.json().code, 'name_invalid', "nobody may choose a name that passes for a guest's default");
  } finally {
    await own.app.close();
  }
});

test('the server sweeps idle guests at boot; a guest who comes back is seen and stays', async () => {
  const backend = sqliteBackend({ path: ':memory:' });
  const { players } = backend;
  const longAgo = new Date(Date.now() - 40 * DAY).toISOString();
  const make = async (id: string, createdAt: string) => {
    const session = newSessionId();
    await players.createPlayer({ id, name: `Guest ${id.slice(-6)}`, createdAt }, { hash: sessionHash(session), playerId: id, expiresAt: Date.now() + DAY });
    return `tessera_session=${session}`;
  };
  await make('p_idle00000000000000000001', longAgo);
  await make('p_fresh0000000000000000001', new Date().toISOString());
  const own = await injectServer({ guestIdleDays: 30 }, true, { backend });
  try {
    const deadline = Date.now() + 5000;
    while ((await own.app.players.player('p_idle00000000000000000001')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await own.app.players.player('p_idle00000000000000000001'), undefined, 'swept at boot');
    assert.ok(await own.app.players.player('p_fresh0000000000000000001'), 'a guest made today stays');
    const cookie = await make('p_back00000000000000000001', longAgo);
    assert.equal((await call(own.app, 'GET', '/api/session', { cookie })).json().player.id, 'p_back00000000000000000001');
    assert.deepEqual(await own.app.players.sweep(Date.now(), Date.now() - 30 * DAY), { sessions: 0, guests: 0 }, 'the request stored the sighting');
    assert.ok(await own.app.players.player('p_back00000000000000000001'));
  } finally {
    await own.app.close();
  }
});

test('signing out ends the session', async () => {
  const p = await guest(app);
  const out = await call(app, 'POST', '/api/session/sign-out', { cookie: p.cookie });
  assert.equal(out.statusCode, 204);
  assert.deepEqual((await call(app, 'GET', '/api/session', { cookie: p.cookie })).json(), { player: null });
});

test("a rematch asked for while signed in is the player's seat too, with or without the finished game's token", async () => {
  const p = await guest(app, 'Rematcher');
  const token = 'finished-seat-token';
  await app.store.create(twoPeopleSetup('done-for-rematch'), [
    { name: 'Rematcher', tokenHash: hashToken(token).toString('hex'), playerId: p.id },
    { name: 'Other', tokenHash: hashToken('other').toString('hex') },
  ]);
  await app.store.appendMoves('done-for-rematch', [], { abandoned: true, scores: [0, 0] });
  const res = await call(app, 'POST', '/api/games/done-for-rematch/rematch', { cookie: p.cookie, body: { token } });
  assert.equal(res.statusCode, 201, res.body);
  const { gameId, seat } = res.json();
  assert.deepEqual(
    (await app.store.get(gameId))?.holders.map((h) => h && [h.name, h.playerId]),
    [['Rematcher', p.id], null],
  );
  assert.equal(seat, 0);
  // The other player's seat, asked for by the cookie alone (a device with no token): refused for a
  // stranger, granted to the player who held it.
  const stranger = await guest(app, 'Stranger');
  assert.equal((await call(app, 'POST', '/api/games/done-for-rematch/rematch', { cookie: stranger.cookie, body: {} })).json().code, 'bad_token');
  assert.equal((await call(app, 'POST', '/api/games/done-for-rematch/rematch', { body: {} })).json().code, 'bad_token');
  const again = await call(app, 'POST', '/api/games/done-for-rematch/rematch', { cookie: p.cookie, body: {} });
  assert.equal(again.statusCode, 201, again.body);
  assert.deepEqual([again.json().gameId, again.json().seat], [gameId, 0], 'the same rematch, the same seat, without the token');
});

test('with TESSERA_PUBLIC_ORIGIN, passkeys are bound to its host and cookie-carried changes must come from it; behind a TLS proxy, trusted or not, the cookie is Secure', async () => {
  const behind = await injectServer({ publicOrigin: 'https://play.example.org', trustProxy: true });
  try {
    const https = { 'x-forwarded-proto': 'https' };
    const started = await call(behind.app, 'POST', '/api/session', { headers: https, body: {} });
    assert.equal(started.cookies[0]?.secure, true);
    const cookie = cookieOf(started);
    const options = (await call(behind.app, 'POST', '/api/passkeys/registration/options', { cookie, headers: https, origin: 'https://play.example.org' })).json();
    assert.equal(options.rp.id, 'play.example.org');
    const own = await call(behind.app, 'POST', '/api/passkeys/registration/options', { cookie, origin: OWN });
    assert.equal(own.json().code, 'cross_origin', "the request's own Host is not the configured origin");
  } finally {
    await behind.app.close();
  }
  // Behind a TLS-terminating proxy the server does not trust, the request arrives as http: the
  // cookie is Secure all the same, when set and when cleared.
  const untrusted = await injectServer({ publicOrigin: 'https://play.example.org' });
  try {
    const started = await call(untrusted.app, 'POST', '/api/session', { body: {} });
    assert.equal(started.cookies[0]?.secure, true, JSON.stringify(started.cookies[0]));
    const out = await call(untrusted.app, 'POST', '/api/session/sign-out', { cookie: cookieOf(started), origin: 'https://play.example.org' });
    assert.equal(out.statusCode, 204, out.body);
    assert.equal(out.cookies[0]?.secure, true, JSON.stringify(out.cookies[0]));
  } finally {
    await untrusted.app.close();
  }
  assert.throws(() => loadConfig({ TESSERA_PUBLIC_ORIGIN: 'https://play.example.org/path' }), /TESSERA_PUBLIC_ORIGIN/);
  assert.equal(testConfig().publicOrigin, null);
  assert.equal(loadConfig({ TESSERA_PUBLIC_ORIGIN: 'https://Play.Example.org:8443' }).publicOrigin, 'https://play.example.org:8443');
});

test('the OpenAPI document describes every player route', async () => {
  const { paths } = (await call(app, 'GET', '/openapi.json')).json();
  const routes = {
    '/api/session': ['get', 'post'],
    '/api/session/sign-out': ['post'],
    '/api/me': ['patch', 'delete'],
    '/api/me/games': ['get'],
    '/api/passkeys/registration/options': ['post'],
    '/api/passkeys/registration': ['post'],
    '/api/passkeys/authentication/options': ['post'],
    '/api/passkeys/authentication': ['post'],
  };
  for (const [path, methods] of Object.entries(routes)) for (const method of methods) assert.deepEqual(paths[path]?.[method]?.tags, ['players'], `${method} ${path}`);
});

test('a passkey added by a guest signs in on a fresh browser with one prompt: the same player, name and games; an answer is good once', async () => {
  const authenticator = new SoftAuthenticator();
  const p = await guest(app, 'Traveller');
  const created = (await call(app, 'POST', '/api/games', { body: { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }] } })).json();
  assert.equal((await call(app, 'POST', `/api/games/${created.id}/seats`, { cookie: p.cookie, body: { name: 'x' } })).statusCode, 201);

  const creation = (await call(app, 'POST', '/api/passkeys/registration/options', { cookie: p.cookie, origin: OWN })).json();
  const registered = await call(app, 'POST', '/api/passkeys/registration', { cookie: p.cookie, origin: OWN, body: authenticator.create(creation, OWN) });
  assert.equal(registered.statusCode, 201, registered.body);
  assert.deepEqual(registered.json(), { id: p.id, name: 'Traveller', passkeys: 1 });
  const again = (await call(app, 'POST', '/api/passkeys/registration/options', { cookie: p.cookie })).json();
  assert.equal(again.excludeCredentials.length, 1, 'the same authenticator is not registered twice');

  // A fresh browser: no cookie. One prompt, no name.
  const request = (await call(app, 'POST', '/api/passkeys/authentication/options', { origin: OWN })).json();
  const assertion = authenticator.get(request, OWN);
  const signedIn = await call(app, 'POST', '/api/passkeys/authentication', { origin: OWN, body: assertion });
  assert.equal(signedIn.statusCode, 200, signedIn.body);
  assert.deepEqual(signedIn.json(), { player: { id: p.id, name: 'Traveller', passkeys: 1 } });
  const second = cookieOf(signedIn);
  assert.notEqual(second, p.cookie);
  assert.deepEqual(
    (await call(app, 'GET', '/api/me/games', { cookie: second })).json().games.map((g: { id: string }) => g.id),
    [created.id],
  );
  const replayed = await call(app, 'POST', '/api/passkeys/authentication', { origin: OWN, body: assertion });
  assert.equal(replayed.json().code, 'passkey_refused', 'the challenge was taken');

  // A signature that does not match is refused, and the guest it came from stays signed in as itself.
  const other = await guest(app);
  const fresh = (await call(app, 'POST', '/api/passkeys/authentication/options')).json();
  const forged = authenticator.get(fresh, OWN);
  forged.response.signature = authenticator.get(fresh, OWN).response.signature.replace(/^.{8}/, 'AAAAAAAA');
  assert.equal((await call(app, 'POST', '/api/passkeys/authentication', { cookie: other.cookie, origin: OWN, body: forged })).json().code, 'passkey_refused');
  assert.equal((await call(app, 'GET', '/api/session', { cookie: other.cookie })).json().player.id, other.id);
  // From another site's page the answer is bound to that origin: refused too.
  const elsewhere = (await call(app, 'POST', '/api/passkeys/authentication/options')).json();
  assert.equal((await call(app, 'POST', '/api/passkeys/authentication', { body: authenticator.get(elsewhere, 'https://evil.example') })).json().code, 'passkey_refused');
  // A credential this server does not know takes the same path as a known one: verified (against
  // a key nobody holds), refused alike, its challenge used up so the real passkey cannot take it.
  const probe = (await call(app, 'POST', '/api/passkeys/authentication/options')).json();
  const unknown = authenticator.get(probe, OWN);
  const genuine = authenticator.get(probe, OWN);
  unknown.id = unknown.rawId = 'AAAAAAAAAAAAAAAAAAAAAA';
  assert.equal((await call(app, 'POST', '/api/passkeys/authentication', { origin: OWN, body: unknown })).json().code, 'passkey_refused');
  assert.equal((await call(app, 'POST', '/api/passkeys/authentication', { origin: OWN, body: genuine })).json().code, 'passkey_refused', 'the challenge went with the unknown credential');
});

test("a passkey answer whose user handle is not the credential's player is refused, and signs in nobody", async () => {
  const authenticator = new SoftAuthenticator();
  const owner = await guest(app, 'Handle Owner');
  const creation = (await call(app, 'POST', '/api/passkeys/registration/options', { cookie: owner.cookie, origin: OWN })).json();
  assert.equal((await call(app, 'POST', '/api/passkeys/registration', { cookie: owner.cookie, origin: OWN, body: authenticator.create(creation, OWN) })).statusCode, 201);
  const other = await guest(app, 'Handle Other');
  const signIn = async (userHandle: string | undefined) => {
    const options = (await call(app, 'POST', '/api/passkeys/authentication/options', { origin: OWN })).json();
    const assertion = authenticator.get(options, OWN);
    assert.equal(Buffer.from(assertion.response.userHandle, 'base64url').toString(), owner.id, "the authenticator's handle is its player's id");
    const response: Record<string, unknown> = { ...assertion.response };
    if (userHandle === undefined) delete response.userHandle;
    else response.userHandle = userHandle;
    return call(app, 'POST', '/api/passkeys/authentication', { origin: OWN, body: { ...assertion, response } });
  };
  // The signature does not cover the user handle: only this check tells the two apart.
  for (const handle of [Buffer.from(other.id).toString('base64url'), undefined]) {
    const refused = await signIn(handle);
    assert.equal(refused.statusCode, 401, refused.body);
    assert.equal(refused.json().code, 'passkey_refused');
    assert.equal(refused.cookies.length, 0, 'no session');
  }
  const signedIn = await signIn(Buffer.from(owner.id).toString('base64url'));
  assert.equal(signedIn.statusCode, 200, signedIn.body);
  assert.equal(signedIn.json().player.id, owner.id);
});

test('with any origin allowed to open a socket, one from another site carrying the cookie only watches', async () => {
  // A real socket: the upgrade's own origin is its scheme and Host.
  const open = await startServer({ allowedOrigins: ['*'] });
  const socket = async (cookie: string, origin: string) => {
    const ws = new WsSocket(open.ws, { headers: { cookie, origin } });
    await once(ws, 'open');
    return new Client(ws as never);
  };
  try {
    const p = await guest(open.app, 'Open Door');
    const created = (await call(open.app, 'POST', '/api/games', { body: { seats: [{ kind: 'person' }, { kind: 'person' }] } })).json();
    await call(open.app, 'POST', `/api/games/${created.id}/seats`, { cookie: p.cookie, body: { name: 'x' } });
    const foreign = await socket(p.cookie, 'https://evil.example');
    await foreign.hello(created.id);
    assert.equal(foreign.welcome.seat, null);
    const own = await socket(p.cookie, open.base);
    await own.hello(created.id);
    assert.equal(own.welcome.seat, 0);
    foreign.close();
    own.close();
  } finally {
    await open.app.close();
  }
});
