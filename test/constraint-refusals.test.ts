// A request that meets a database constraint (a credential id already stored, a name another
// player holds) is the client's fault: it gets its catalogue code, never `storage_unavailable`;
// the store stays ready (/readyz 200 at once, `tessera_store_writable` 1) and nothing is logged at
// error level. A constraint no request should reach is a server bug, not a storage fault either.
// On SQLite and on PostgreSQL.

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { type PrivatePostgres, startPostgres } from '../support/postgres.ts';
import { Metrics } from '../server/metrics.ts';
import { PostgresStore } from '../server/storage/postgres/games.ts';
import { SqliteStore } from '../server/storage/sqlite/games.ts';
import type { GameStore } from '../server/games/store.ts';
import { ConstraintError, StorageError } from '../server/storage/errors.ts';
import { WatchedStore } from '../server/storage/watched/games.ts';
import type { Config } from '../server/config.ts';
import { needing, POSTGRES } from './support/needs.ts';
import { SoftAuthenticator } from './support/soft-authenticator.ts';
import { injectServer, twoPeopleSetup } from './server-helpers.ts';

// Without PostgreSQL installed, its tests are skipped (the SQLite ones run); under CI=true they fail.
const { test, before, after, skip: noPostgres } = needing([POSTGRES], (name) => name.startsWith('postgres'));

let postgres: PrivatePostgres;
before(async () => {
  if (!noPostgres) postgres = await startPostgres();
});
after(() => postgres?.stop());

const OWN = 'http://localhost:80';
const ERROR_LEVEL = 50;

type Line = { level: number; msg?: string };

function capturingLogger() {
  const lines: Line[] = [];
  return { logger: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }), lines };
}

function call(app: FastifyInstance, method: 'GET' | 'POST' | 'PATCH', url: string, c: { cookie?: string; body?: unknown } = {}): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { origin: OWN };
  if (c.cookie) headers.cookie = c.cookie;
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  return app.inject({ method, url, headers, ...(c.body === undefined ? {} : { payload: JSON.stringify(c.body) }) });
}

async function guest(app: FastifyInstance, name: string): Promise<{ cookie: string; id: string }> {
  const res = await call(app, 'POST', '/api/session', { body: { name } });
  assert.equal(res.statusCode, 201, res.body);
  const set = res.cookies.find((c) => c.name === 'tessera_session');
  assert.ok(set);
  return { cookie: `tessera_session=${set.value}`, id: res.json().player.id };
}

/** Registers a passkey for the player: a new credential, or one reusing `credentialId`. */
async function register(app: FastifyInstance, cookie: string, authenticator: SoftAuthenticator, credentialId?: string): Promise<{ res: LightMyRequestResponse; id: string }> {
  const options = (await call(app, 'POST', '/api/passkeys/registration/options', { cookie })).json();
  const answer = authenticator.create(options, OWN, credentialId);
  return { res: await call(app, 'POST', '/api/passkeys/registration', { cookie, body: answer }), id: answer.id };
}

/** Right after a refusal: ready, the store writable, nothing at error level. */
async function assertStillHealthy(app: FastifyInstance, lines: Line[], what: string): Promise<void> {
  const ready = await call(app, 'GET', '/readyz');
  assert.equal(ready.statusCode, 200, `${what}: /readyz ${ready.body}`);
  const metrics = (await call(app, 'GET', '/metrics')).body;
  assert.match(metrics, /^tessera_store_writable 1$/m, `${what}: the store counts as writable`);
  assert.doesNotMatch(metrics, /^tessera_store_write_failures_total\{[^}]*\} [1-9]/m, `${what}: no write failure counted`);
  assert.deepEqual(
    lines.filter((l) => l.level >= ERROR_LEVEL).map((l) => l.msg),
    [],
    `${what}: nothing logged at error level`,
  );
}

const backends: [string, () => Promise<Partial<Config>>][] = [
  ['sqlite', async () => ({})],
  ['postgres', async () => ({ databaseUrl: await postgres.database('constraints') })],
];

for (const [backend, configOf] of backends) {
  test(`${backend}: registering a credential id already stored (one's own or another player's) is 401 passkey_refused, and the store stays ready`, async () => {
    const { logger, lines } = capturingLogger();
    const { app } = await injectServer({ ...(await configOf()), createsPerMinute: 1000 }, true, { logger });
    try {
      const owner = await guest(app, 'Keyholder');
      const authenticator = new SoftAuthenticator();
      const first = await register(app, owner.cookie, authenticator);
      assert.equal(first.res.statusCode, 201, first.res.body);
      const other = await guest(app, 'Copycat');
      for (const [who, cookie] of [
        ['its own player', owner.cookie],
        ['another player', other.cookie],
      ] as const) {
        const { res: again } = await register(app, cookie, authenticator, first.id);
        assert.equal(again.statusCode, 401, `${who}: ${again.body}`);
        assert.deepEqual(again.json(), { statusCode: 401, code: 'passkey_refused', message: 'the passkey could not be verified: nothing changed' });
        await assertStillHealthy(app, lines, `the credential again, by ${who}`);
      }
      // Nothing changed: the owner keeps one passkey, the other player has none.
      assert.equal((await call(app, 'GET', '/api/session', { cookie: owner.cookie })).json().player.passkeys, 1);
      assert.equal((await call(app, 'GET', '/api/session', { cookie: other.cookie })).json().player.passkeys, 0);
    } finally {
      await app.close();
    }
  });

  test(`${backend}: a name another player holds is 409 name_taken, for a new player and a rename, and the store stays ready`, async () => {
    const { logger, lines } = capturingLogger();
    const { app } = await injectServer({ ...(await configOf()), createsPerMinute: 1000 }, true, { logger });
    try {
      await guest(app, 'Alice');
      const taken = await call(app, 'POST', '/api/session', { body: { name: 'ALICE' } });
      assert.equal(taken.statusCode, 409, taken.body);
      assert.equal(taken.json().code, 'name_taken');
      assert.equal(taken.cookies.length, 0, 'no session for a refused guest');
      await assertStillHealthy(app, lines, 'a new player under a taken name');
      const bob = await guest(app, 'Bob');
      const renamed = await call(app, 'PATCH', '/api/me', { cookie: bob.cookie, body: { name: 'alice' } });
      assert.equal(renamed.statusCode, 409, renamed.body);
      assert.equal(renamed.json().code, 'name_taken');
      await assertStillHealthy(app, lines, 'a rename to a taken name');
      assert.equal((await call(app, 'GET', '/api/session', { cookie: bob.cookie })).json().player.name, 'Bob', 'nothing changed');
      // Players racing for one name: one gets it (on PostgreSQL the unique key decides).
      const racing = await Promise.all(Array.from({ length: 4 }, () => call(app, 'POST', '/api/session', { body: { name: 'Racer' } })));
      assert.deepEqual(racing.map((r) => r.statusCode).sort(), [201, 409, 409, 409]);
      assert.ok(racing.every((r) => r.statusCode === 201 || r.json().code === 'name_taken'));
      await assertStillHealthy(app, lines, 'players racing for one name');
    } finally {
      await app.close();
    }
  });
}

for (const [backend, configOf] of backends) {
  test(`${backend}: a registration whose transports are not WebAuthn's keeps only those that are (no 500 from a value the database refuses)`, async () => {
    const { logger, lines } = capturingLogger();
    const { app } = await injectServer({ ...(await configOf()), createsPerMinute: 1000 }, true, { logger });
    try {
      const p = await guest(app, 'Odd Transports');
      const authenticator = new SoftAuthenticator();
      for (const [sent, kept] of [
        [['usb', '\u0000', { x: 1 }, 'usb', 'teleport'], ['usb']],
        ['nfc', []],
      ] as const) {
        const options = (await call(app, 'POST', '/api/passkeys/registration/options', { cookie: p.cookie })).json();
        const answer = authenticator.create(options, OWN);
        const res = await call(app, 'POST', '/api/passkeys/registration', { cookie: p.cookie, body: { ...answer, response: { ...answer.response, transports: sent } } });
        assert.equal(res.statusCode, 201, `${JSON.stringify(sent)}: ${res.body}`);
        await assertStillHealthy(app, lines, `transports ${JSON.stringify(sent)}`);
        const excluded = (await call(app, 'POST', '/api/passkeys/registration/options', { cookie: p.cookie })).json().excludeCredentials;
        assert.deepEqual(excluded.find((c: { id: string }) => c.id === answer.id)?.transports, kept, JSON.stringify(sent));
      }
    } finally {
      await app.close();
    }
  });
}

/** A constraint no request reaches (a game id stored twice; a game's rated end stored twice) is
 * a ConstraintError: a server bug, never a storage fault that would take the instance out. */
async function assertConstraintIsNoStorageFault(inner: GameStore): Promise<void> {
  const { logger, lines } = capturingLogger();
  const watched = new WatchedStore(inner, new Metrics(), logger);
  try {
    await watched.create(twoPeopleSetup('twice'), [null, null]);
    const rated = { abandoned: true, scores: [0, 0], rated: { players: ['p_a', 'p_b'], ranks: [1, 2] } };
    await watched.appendMoves('twice', [], rated);
    for (const [what, target, write] of [
      ['a game id stored twice', 'games.id', () => watched.create(twoPeopleSetup('twice'), [null, null])],
      ['a rated end stored twice', 'rating_changes.game_id,player_id', () => watched.appendMoves('twice', [], rated)],
    ] as const) {
      const failure = await write().then(
        () => assert.fail(`${what}: stored`),
        (e: unknown) => e,
      );
      assert.ok(failure instanceof ConstraintError, `${what}: ${failure}`);
      assert.ok(!(failure instanceof StorageError), what);
      assert.equal(failure.kind, 'unique', what);
      assert.equal(failure.target, target, `${what}: named as both stores name it`);
      assert.equal(watched.problem(), null, `${what}: the store stays ready`);
    }
    assert.deepEqual(
      lines.filter((l) => l.level >= ERROR_LEVEL).map((l) => l.msg),
      [],
    );
  } finally {
    await watched.close();
  }
}

test('sqlite: a constraint no request reaches is a ConstraintError, not a storage fault, on the connection and on the writer thread', async () => {
  await assertConstraintIsNoStorageFault(new SqliteStore({ path: ':memory:' }));
  const path = join(mkdtempSync(join(tmpdir(), 'tessera-constraints-')), 'tessera.db');
  await assertConstraintIsNoStorageFault(new SqliteStore({ path, moveWrites: 'thread' }));
});

test('postgres: a constraint no request reaches is a ConstraintError, not a storage fault', async () => {
  await assertConstraintIsNoStorageFault(await PostgresStore.connect({ url: await postgres.database('constraint_bug') }));
});
