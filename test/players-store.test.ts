// The PlayerStore contract, run against every store it lives beside (memory, SQLite, a private
// PostgreSQL): names unique by their folded key, sessions, challenges taken once, passkeys, and a
// deleted player's seats renamed and those kept for them released in the same transaction.
import assert from 'node:assert/strict';
import { DELETED_NAME, nameKey, validName } from '../server/players/names.ts';
import { postgresBackend } from '../server/storage/postgres/backend.ts';
import { sqliteBackend } from '../server/storage/sqlite/backend.ts';
import { type PlayerStore, newPlayerId, newSessionId, sessionHash } from '../server/players/store.ts';
import { type GameSetup, isDamaged, type StoreMaintenance } from '../server/games/store.ts';
import { Seats } from '../server/games/seats.ts';
import { seatPerson } from '../server/games/seating.ts';
import { snapshotOf } from '../server/games/records.ts';
import { CodedError } from '../server/errors.ts';
import { everyStore } from './support/every-store.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS as SQLITE_MIGRATIONS } from '../server/storage/sqlite/games.ts';
import { MIGRATIONS as POSTGRES_MIGRATIONS } from '../server/storage/postgres/migrations.ts';
import { postgresNameKeysMigration, sqlitePlayersSweepMigration, sqliteNameKeysMigration } from '../server/players/schema.ts';

const { test, backends, postgresUrl } = everyStore('players');

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const setup = (id: string): GameSetup => ({
  id,
  createdAt: '2026-11-21T10:00:00.000Z',
  seed: `seed-${id}`,
  rules: { tinyCity: false, farmers: '3rd' },
  seats: [{ kind: 'person' }, { kind: 'person' }],
  clock: { turnSeconds: null, graceSeconds: 60 },
  standIn: 'heuristic',
});
const codeOf = (code: string) => (e: unknown) => e instanceof CodedError && e.code === code;

async function newPlayer(players: PlayerStore, name: string, createdAt = Date.now(), expiresAt = Date.now() + HOUR): Promise<{ id: string; session: string }> {
  const id = newPlayerId();
  const session = newSessionId();
  await players.createPlayer({ id, name, createdAt: new Date(createdAt).toISOString() }, { hash: sessionHash(session), playerId: id, expiresAt });
  return { id, session };
}

test('names: a key folds case, width and confusables; invalid and reserved names are refused', () => {
  assert.equal(nameKey('Alice'), nameKey('ＡＬＩＣＥ'));
  assert.equal(nameKey('Alice'), nameKey('\u0410lice'), 'Cyrillic А is Latin A');
  assert.notEqual(nameKey('Alice'), nameKey('Alicia'));
  for (const lookAlike of ['AIice', 'A1ice', 'ALICE', 'A|ice']) assert.equal(nameKey(lookAlike), nameKey('Alice'), `${lookAlike}: the UTS #39 skeleton with case folded`);
  assert.equal(nameKey('Sam'), nameKey('Sarn'), 'm looks like rn');
  assert.equal(validName('  Zoë   the  Great '), 'Zoë the Great');
  for (const bad of [
    '',
    '   ',
    '-dash first',
    'a'.repeat(25),
    'zero\u200bwidth',
    'emoji 🎲',
    'Expert bot',
    'deleted player',
    '<script>',
    'Alice\u3164',
    'AliceBOT',
    'random bot 2',
    'Guest 123456',
    'ｇｕｅｓｔ 7',
    'Guest l23456',
    'Gu\u0435st 42',
  ])
    assert.throws(() => validName(bad), codeOf('name_invalid'), bad);
});

for (const [name, make] of backends) {
  test(`${name} players: a player is found by a live session only, and names are unique by key`, async () => {
    const { games, players } = await make();
    const alice = await newPlayer(players, 'Alice');
    assert.equal((await players.playerBySession(sessionHash(alice.session), Date.now()))?.name, 'Alice');
    assert.equal(await players.playerBySession(sessionHash(alice.session), Date.now() + 2 * HOUR), undefined, 'expired');
    assert.equal(await players.playerBySession(sessionHash('not a session'), Date.now()), undefined);
    await assert.rejects(() => newPlayer(players, 'ＡＬＩＣＥ'), codeOf('name_taken'));
    const bob = await newPlayer(players, 'Bob');
    await assert.rejects(() => players.rename(bob.id, '\u0430lice'), codeOf('name_taken'));
    assert.equal((await players.player(bob.id))?.name, 'Bob', 'a refused rename changes nothing');
    assert.equal(await players.rename(alice.id, 'ALICE'), true, 'a player may change the case of their own name');
    assert.equal(await players.rename(bob.id, 'Robert'), true);
    assert.equal(await players.rename('p_nobody', 'Carol'), false);
    assert.equal((await players.player(bob.id))?.name, 'Robert');
    await newPlayer(players, 'Bob');
    // Two players racing for one name (and a rename racing them): exactly one gets it.
    const raced = await Promise.allSettled([newPlayer(players, 'Dora'), newPlayer(players, 'DORA'), players.rename(bob.id, 'dora')]);
    assert.equal(raced.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(raced.map((r) => r.status)));
    assert.ok(raced.every((r) => r.status === 'fulfilled' || codeOf('name_taken')(r.reason)));
    await players.endSession(sessionHash(alice.session));
    assert.equal(await players.playerBySession(sessionHash(alice.session), Date.now()), undefined);
    // A guest's default name holds no key: two guests may share one, and it never runs out.
    const guests = [await newPlayer(players, 'Guest 123456'), await newPlayer(players, 'Guest 123456')];
    for (const g of guests) assert.equal((await players.player(g.id))?.name, 'Guest 123456');
    assert.equal(await players.rename(guests[0].id, 'Erin'), true, 'a guest takes a name of their own');
    assert.equal((await players.player(guests[1].id))?.name, 'Guest 123456');
    await games.close();
  });

  test(`${name} players: a sweep removes expired sessions and guests unseen for long who hold no seat; passkey players, seated guests and guests seen lately stay`, async () => {
    const { games, players } = await make();
    const now = Date.now();
    const longAgo = now - 40 * DAY;
    const idleBefore = now - 30 * DAY;
    const idle = await newPlayer(players, 'Idle Ivy', longAgo);
    const idleGuest = await newPlayer(players, 'Guest 100001', longAgo, now - DAY);
    const withPasskey = await newPlayer(players, 'Keyed Kim', longAgo, now - DAY);
    await players.addPasskey({ id: 'cred-k', playerId: withPasskey.id, publicKey: 'pk', counter: 0, transports: [], createdAt: new Date(longAgo).toISOString() });
    const seated = await newPlayer(players, 'Seated Sam', longAgo);
    await games.create(setup('g-sam'), [{ name: 'Seated Sam', tokenHash: 'aa'.repeat(32), playerId: seated.id }, null]);
    const finished = await newPlayer(players, 'Finished Fay', longAgo);
    await games.create(setup('g-fay'), [
      { name: 'Finished Fay', tokenHash: 'bb'.repeat(32), playerId: finished.id },
      { name: 'Someone', tokenHash: 'cc'.repeat(32) },
    ]);
    await games.appendMoves('g-fay', [], { abandoned: true, scores: [0, 0] });
    const returning = await newPlayer(players, 'Back Again', longAgo);
    await players.seen(returning.id, now - DAY);
    const fresh = await newPlayer(players, 'Guest 100002');
    const deleted = await newPlayer(players, 'Gone Gus', longAgo);
    await players.deletePlayer(deleted.id, DELETED_NAME, new Date(longAgo).toISOString());

    assert.deepEqual(await players.sweep(now, idleBefore), { sessions: 2, guests: 2 }, 'two expired sessions; Ivy and the idle guest');
    for (const gone of [idle, idleGuest]) assert.equal(await players.player(gone.id), undefined);
    assert.equal(await players.playerBySession(sessionHash(idle.session), now), undefined, "a swept guest's live session goes with them");
    for (const kept of [withPasskey, seated, finished, returning, fresh]) assert.ok(await players.player(kept.id), 'kept');
    for (const live of [seated, finished, returning, fresh]) assert.ok(await players.playerBySession(sessionHash(live.session), now), 'their sessions are live');
    assert.equal(await players.playerBySession(sessionHash(withPasskey.session), now - 2 * DAY), undefined, 'the expired session is gone, whenever asked');
    assert.deepEqual((await games.get('g-sam'))?.holders[0]?.playerId, seated.id);
    assert.deepEqual(await players.sweep(now, idleBefore), { sessions: 0, guests: 0 }, 'nothing left to sweep');
    await newPlayer(players, 'idle ivy');
    await games.close();
  });

  test(`${name} players: a challenge is taken once; a sign-in moves the browser's session to the passkey's player`, async () => {
    const { games, players } = await make();
    const alice = await newPlayer(players, 'Alice');
    const guest = await newPlayer(players, 'Guest 1');
    const expiresAt = Date.now() + 60_000;
    await players.putChallenge({ challenge: 'c1', playerId: alice.id, expiresAt });
    await players.putChallenge({ challenge: 'old', playerId: null, expiresAt: Date.now() - 1 });
    assert.deepEqual(await players.takeChallenge('c1', Date.now()), { challenge: 'c1', playerId: alice.id, expiresAt });
    assert.equal(await players.takeChallenge('c1', Date.now()), undefined, 'taken once');
    assert.equal(await players.takeChallenge('old', Date.now()), undefined, 'expired');
    const key = { id: 'cred-1', playerId: alice.id, publicKey: 'pk', counter: 0, transports: ['internal'], createdAt: new Date().toISOString() };
    await players.addPasskey(key);
    await assert.rejects(() => players.addPasskey({ ...key, playerId: guest.id }), 'a credential id is registered once');
    assert.deepEqual(await players.passkey('cred-1'), key);
    assert.deepEqual(await players.passkeys(alice.id), [key]);
    assert.deepEqual(await players.passkeys(guest.id), []);
    const session = newSessionId();
    assert.equal(await players.signIn('cred-1', 5, { hash: sessionHash(session), playerId: alice.id, expiresAt: Date.now() + HOUR }, sessionHash(guest.session)), true);
    assert.equal((await players.playerBySession(sessionHash(session), Date.now()))?.id, alice.id);
    assert.equal(await players.playerBySession(sessionHash(guest.session), Date.now()), undefined, "the browser's guest session is ended");
    assert.equal((await players.passkey('cred-1'))?.counter, 5);
    await games.close();
  });

  test(`${name} players: deleting a player frees the name and renames their seats, other seats untouched`, async () => {
    const { games, players } = await make();
    const alice = await newPlayer(players, 'Alice');
    const bob = await newPlayer(players, 'Bob');
    await players.addPasskey({ id: 'cred-a', playerId: alice.id, publicKey: 'pk', counter: 0, transports: [], createdAt: new Date().toISOString() });
    await games.create(setup('g1'), [
      { name: 'Alice', tokenHash: 'aa'.repeat(32), playerId: alice.id },
      { name: 'Bob', tokenHash: 'bb'.repeat(32), playerId: bob.id },
    ]);
    await games.appendMoves('g1', [], { abandoned: true, scores: [0, 0] });
    await games.create(setup('g2'), [{ name: 'Alice', tokenHash: 'cc'.repeat(32), playerId: alice.id }, null]);
    assert.equal(await players.deletePlayer(alice.id, DELETED_NAME, new Date().toISOString()), true);
    assert.equal(await players.deletePlayer(alice.id, DELETED_NAME, new Date().toISOString()), false, 'once');
    assert.deepEqual((await games.get('g1'))?.holders, [
      { name: DELETED_NAME, tokenHash: 'aa'.repeat(32) },
      { name: 'Bob', tokenHash: 'bb'.repeat(32), playerId: bob.id },
    ]);
    assert.deepEqual((await games.get('g2'))?.holders, [{ name: DELETED_NAME, tokenHash: 'cc'.repeat(32) }, null]);
    assert.equal((await games.list({ finished: true, player: 'Alice' })).games.length, 0, 'the name is gone from the finished-games search');
    assert.equal((await games.list({ finished: true, playerId: alice.id })).games.length, 0);
    assert.equal(await players.player(alice.id), undefined);
    assert.equal(await players.playerBySession(sessionHash(alice.session), Date.now()), undefined, 'sessions gone');
    assert.equal(await players.passkey('cred-a'), undefined, 'passkeys gone');
    const late = newSessionId();
    assert.equal(
      await players.signIn('cred-a', 1, { hash: sessionHash(late), playerId: alice.id, expiresAt: Date.now() + HOUR }, null),
      false,
      'a sign-in verified before the deletion writes nothing',
    );
    assert.equal(await players.playerBySession(sessionHash(late), Date.now()), undefined);
    assert.equal((await players.playerBySession(sessionHash(bob.session), Date.now()))?.name, 'Bob');
    await newPlayer(players, 'alice');
    await games.close();
  });

  test(`${name} players: deleting a player releases the seats kept for them (challenged by name): open to anyone, their name and id in no stored game`, async () => {
    const { games, players } = await make();
    const ann = await newPlayer(players, 'Annika');
    const ben = await newPlayer(players, 'Benedikt');
    const annSeat = { name: 'Annika', tokenHash: 'aa'.repeat(32), playerId: ann.id };
    const challenge = (id: string, keptFor = ben.id, keptName = 'Benedikt'): GameSetup => ({ ...setup(id), seats: [{ kind: 'person' }, { kind: 'person', player: { id: keptFor, name: keptName } }] });
    // Waiting for Ben; finished with Ben in his seat; abandoned before he came; Ann's own challenge.
    await games.create(challenge('k-waiting'), [annSeat, null]);
    await games.create(challenge('k-played'), [annSeat, { name: 'Benedikt', tokenHash: 'bb'.repeat(32), playerId: ben.id }]);
    await games.appendMoves('k-played', [], { abandoned: true, scores: [0, 0] });
    await games.create(challenge('k-unplayed'), [annSeat, null]);
    await games.appendMoves('k-unplayed', [], { abandoned: true, scores: [0, 0] });
    await games.create(challenge('k-other', ann.id, 'Annika'), [null, null]);
    const invited = async (playerId: string, finished: boolean) => (await games.list({ finished, playerId, invited: true })).games.map((g) => (isDamaged(g) ? g.id : g.setup.id)).sort();
    const stored = async (id: string) => JSON.stringify([await games.get(id), await (games as Partial<StoreMaintenance>).raw?.(id)]);
    assert.deepEqual([await invited(ben.id, false), await invited(ben.id, true)], [['k-waiting'], ['k-played', 'k-unplayed']]);
    for (const id of ['k-waiting', 'k-played', 'k-unplayed']) assert.match(await stored(id), /Benedikt/, 'the name is stored before');

    assert.equal(await players.deletePlayer(ben.id, DELETED_NAME, new Date().toISOString()), true);
    for (const id of ['k-waiting', 'k-played', 'k-unplayed']) {
      assert.deepEqual((await games.get(id))?.setup.seats, [{ kind: 'person' }, { kind: 'person' }], `${id}: no seat is kept for him`);
      const rows = await stored(id);
      assert.ok(!rows.includes('Benedikt') && !rows.includes(ben.id), `${id}: neither his name nor his id is stored: ${rows}`);
    }
    assert.deepEqual((await games.get('k-played'))?.holders[1], { name: DELETED_NAME, tokenHash: 'bb'.repeat(32) }, 'the seat he held is renamed');
    assert.deepEqual([await invited(ben.id, false), await invited(ben.id, true)], [[], []], 'the index lists nothing under his id');
    assert.equal((await games.list({ finished: true, player: 'Benedikt' })).games.length, 0);
    assert.deepEqual((await games.get('k-other'))?.setup.seats[1].player, { id: ann.id, name: 'Annika' }, "another player's kept seat stays");
    assert.deepEqual(await invited(ann.id, false), ['k-other', 'k-waiting']);

    // The released seat is an ordinary open one: shown as such, and anyone may take it.
    const waiting = (await games.get('k-waiting'))!;
    assert.equal(snapshotOf(waiting).view(null).seats[1].invited, undefined);
    const taken = await seatPerson({ setup: waiting.setup, seats: new Seats(waiting.holders), store: games, lost: () => assert.fail('lost') }, 'Cyrille', undefined, false, undefined);
    assert.ok(!('error' in taken), JSON.stringify(taken));
    assert.equal(taken.seat, 1);
    assert.equal((await games.get('k-waiting'))?.holders[1]?.name, 'Cyrille');
    await games.close();
  });

  test(`${name} players: a game made while a player it keeps a seat for is deleted keeps no seat for them: refused, or released by the deletion`, async () => {
    const { games, players } = await make();
    const challenge = (id: string, p: { id: string }): GameSetup => ({ ...setup(id), seats: [{ kind: 'person' }, { kind: 'person', player: { id: p.id, name: 'Benedikt' } }] });
    const gone = await newPlayer(players, 'Benedikt');
    await players.deletePlayer(gone.id, DELETED_NAME, new Date().toISOString());
    await assert.rejects(games.create(challenge('after', gone), [null, null]), (e: Error) => codeOf('unknown_player')(e) && /Benedikt deleted their account/.test(e.message));
    assert.equal(await games.get('after'), undefined, 'nothing stored');
    for (let round = 0; round < 6; round++) {
      const ben = await newPlayer(players, 'Benedikt');
      const id = `race-${round}`;
      // Both asked for in the same tick, in either order: the store decides which commits first.
      const deleting = () => players.deletePlayer(ben.id, DELETED_NAME, new Date().toISOString());
      const creating = () => games.create(challenge(id, ben), [null, null]);
      const [first, second] = round % 2 === 0 ? [deleting(), creating()] : [creating(), deleting()];
      const [a, b] = await Promise.allSettled([first, second]);
      const created = round % 2 === 0 ? b : a;
      assert.equal((round % 2 === 0 ? a : b).status, 'fulfilled');
      if (created.status === 'rejected') {
        assert.ok(codeOf('unknown_player')(created.reason), String(created.reason));
        assert.match((created.reason as Error).message, /Benedikt deleted their account/);
        assert.equal(await games.get(id), undefined, 'nothing stored');
      } else {
        assert.deepEqual((await games.get(id))?.setup.seats, [{ kind: 'person' }, { kind: 'person' }], 'released by the deletion');
      }
      assert.deepEqual((await games.list({ finished: false, playerId: ben.id, invited: true })).games, []);
    }
    await games.close();
  });
}

test('sqlite players: players stored before sightings were kept count as seen at the boot that migrates them', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'tessera-players-')), 'games.db');
  const before = sqliteBackend({ path });
  const old = await newPlayer(before.players, 'Old Olga', Date.now() - 400 * DAY, Date.now() + DAY);
  await before.close();
  const db = new DatabaseSync(path);
  // Back to before the sweep's step (the steps after it run again, changing nothing).
  db.exec(`DROP INDEX players_by_seen; DROP INDEX sessions_by_expiry; ALTER TABLE players DROP COLUMN seen_at; PRAGMA user_version = ${SQLITE_MIGRATIONS.indexOf(sqlitePlayersSweepMigration)};`);
  db.close();
  const migrated = Date.now();
  const after = sqliteBackend({ path });
  const players = after.players;
  assert.ok((await players.playerBySession(sessionHash(old.session), Date.now()))!.seenAt >= migrated - 1);
  assert.deepEqual(await players.sweep(Date.now(), migrated - 30 * DAY), { sessions: 0, guests: 0 });
  await after.close();
});

// Players stored under the old key (lower case, the `confusables` table): "AIice" (capital i) and
// "Alice" were two names then. Made again under the skeleton, the older keeps the key and the
// later keeps its name under a key of its own; a guest's default name holds none.
const OLD_KEYS: [string, string | null][] = [
  ['Alice', 'alice'],
  ['AIice', 'aiice'],
  ['Guest 123456', 'guest 123456'],
  ['Bob', 'bob'],
];

async function checkRekeyed(players: PlayerStore, keys: Map<string, string | null>, ids: string[]): Promise<void> {
  assert.deepEqual(
    ids.map((id) => keys.get(id)),
    [nameKey('Alice'), `${nameKey('Alice')}#${ids[1]}`, null, nameKey('Bob')],
  );
  assert.equal(await players.nameHeld('ALlCE'), true, 'a look-alike of the older name is held');
  await assert.rejects(newPlayer(players, 'A1ice'), codeOf('name_taken'));
  await newPlayer(players, 'Guest Star');
}

test('sqlite players: names stored under the old key are keyed again by the skeleton, oldest first', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'tessera-players-')), 'games.db');
  const before = sqliteBackend({ path });
  const ids: string[] = [];
  for (const i of OLD_KEYS.keys()) ids.push((await newPlayer(before.players, `Zed ${'abcd'[i]}`, Date.parse('2026-01-01') + i * DAY)).id);
  await before.close();
  const db = new DatabaseSync(path);
  db.exec('UPDATE players SET name_key = NULL');
  for (const [i, [name, key]] of OLD_KEYS.entries()) db.prepare('UPDATE players SET name = ?, name_key = ? WHERE id = ?').run(name, key, ids[i]);
  db.exec(`PRAGMA user_version = ${SQLITE_MIGRATIONS.indexOf(sqliteNameKeysMigration)}`);
  db.close();
  const after = sqliteBackend({ path });
  const keys = new Map((after.games.database.prepare('SELECT id, name_key FROM players').all() as { id: string; name_key: string | null }[]).map((r) => [r.id, r.name_key]));
  await checkRekeyed(after.players, keys, ids);
  await after.close();
});

test('postgres players: names stored under the old key are keyed again by the skeleton, oldest first', async () => {
  const url = await postgresUrl();
  const before = await postgresBackend({ url });
  const ids: string[] = [];
  for (const i of OLD_KEYS.keys()) ids.push((await newPlayer(before.players, `Zed ${'abcd'[i]}`, Date.parse('2026-01-01') + i * DAY)).id);
  await before.games.write(async (c) => {
    await c.query('UPDATE players SET name_key = NULL');
    for (const [i, [name, key]] of OLD_KEYS.entries()) await c.query('UPDATE players SET name = $1, name_key = $2 WHERE id = $3', [name, key, ids[i]]);
    await c.query('DELETE FROM schema_migrations WHERE version > $1', [POSTGRES_MIGRATIONS.indexOf(postgresNameKeysMigration)]);
  });
  await before.close();
  const after = await postgresBackend({ url });
  const { rows } = await after.games.query('SELECT id, name_key FROM players');
  await checkRekeyed(after.players, new Map(rows.map((r) => [r.id as string, r.name_key as string | null])), ids);
  await after.close();
});
