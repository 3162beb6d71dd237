// The AccountStore contract, run against every store it lives beside (memory, SQLite, a private
// PostgreSQL): names unique by their folded key, sessions, challenges taken once, passkeys, and a
// deleted player's seats renamed in the same transaction.
import assert from 'node:assert/strict';
import { DELETED_NAME, nameKey, validName } from '../server/accounts/names.ts';
import { accountsBeside } from '../server/accounts/open.ts';
import { type AccountStore, newPlayerId, newSessionId, sessionHash } from '../server/accounts/store.ts';
import type { GameSetup } from '../server/games/store.ts';
import { CodedError } from '../server/errors.ts';
import { everyStore } from './support/every-store.ts';

const { test, stores } = everyStore('accounts');

const HOUR = 3_600_000;
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

async function newPlayer(accounts: AccountStore, name: string): Promise<{ id: string; session: string }> {
  const id = newPlayerId();
  const session = newSessionId();
  await accounts.createPlayer({ id, name, createdAt: new Date().toISOString() }, { hash: sessionHash(session), playerId: id, expiresAt: Date.now() + HOUR });
  return { id, session };
}

test('names: a key folds case, width and confusables; invalid and reserved names are refused', () => {
  assert.equal(nameKey('Alice'), nameKey('ＡＬＩＣＥ'));
  assert.equal(nameKey('Alice'), nameKey('\u0410lice'), 'Cyrillic А is Latin A');
  assert.notEqual(nameKey('Alice'), nameKey('Alicia'));
  for (const lookAlike of ['AIice', 'A1ice', 'ALICE', 'A|ice']) assert.equal(nameKey(lookAlike), nameKey('Alice'), `${lookAlike}: the UTS #39 skeleton with case folded`);
  assert.equal(nameKey('Sam'), nameKey('Sarn'), 'm looks like rn');
  assert.equal(validName('  Zoë   the  Great '), 'Zoë the Great');
  for (const bad of ['', '   ', '-dash first', 'a'.repeat(25), 'zero\u200bwidth', 'emoji 🎲', 'Expert bot', 'deleted player', '<script>', 'Alice\u3164', 'AliceBOT', 'random bot 2'])
    assert.throws(() => validName(bad), codeOf('name_invalid'), bad);
});

for (const [name, make] of stores) {
  test(`${name} accounts: a player is found by a live session only, and names are unique by key`, async () => {
    const games = await make();
    const accounts = accountsBeside(games);
    const alice = await newPlayer(accounts, 'Alice');
    assert.equal((await accounts.playerBySession(sessionHash(alice.session), Date.now()))?.name, 'Alice');
    assert.equal(await accounts.playerBySession(sessionHash(alice.session), Date.now() + 2 * HOUR), undefined, 'expired');
    assert.equal(await accounts.playerBySession(sessionHash('not a session'), Date.now()), undefined);
    await assert.rejects(() => newPlayer(accounts, 'ＡＬＩＣＥ'), codeOf('name_taken'));
    const bob = await newPlayer(accounts, 'Bob');
    await assert.rejects(() => accounts.rename(bob.id, '\u0430lice'), codeOf('name_taken'));
    assert.equal((await accounts.player(bob.id))?.name, 'Bob', 'a refused rename changes nothing');
    assert.equal(await accounts.rename(alice.id, 'ALICE'), true, 'a player may change the case of their own name');
    assert.equal(await accounts.rename(bob.id, 'Robert'), true);
    assert.equal(await accounts.rename('p_nobody', 'Carol'), false);
    assert.equal((await accounts.player(bob.id))?.name, 'Robert');
    await newPlayer(accounts, 'Bob');
    // Two players racing for one name (and a rename racing them): exactly one gets it.
    const raced = await Promise.allSettled([newPlayer(accounts, 'Dora'), newPlayer(accounts, 'DORA'), accounts.rename(bob.id, 'dora')]);
    assert.equal(raced.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(raced.map((r) => r.status)));
    assert.ok(raced.every((r) => r.status === 'fulfilled' || codeOf('name_taken')(r.reason)));
    await accounts.endSession(sessionHash(alice.session));
    assert.equal(await accounts.playerBySession(sessionHash(alice.session), Date.now()), undefined);
    await games.close();
  });

  test(`${name} accounts: a challenge is taken once; a sign-in moves the browser's session to the passkey's player`, async () => {
    const games = await make();
    const accounts = accountsBeside(games);
    const alice = await newPlayer(accounts, 'Alice');
    const guest = await newPlayer(accounts, 'Guest 1');
    const expiresAt = Date.now() + 60_000;
    await accounts.putChallenge({ challenge: 'c1', playerId: alice.id, expiresAt });
    await accounts.putChallenge({ challenge: 'old', playerId: null, expiresAt: Date.now() - 1 });
    assert.deepEqual(await accounts.takeChallenge('c1', Date.now()), { challenge: 'c1', playerId: alice.id, expiresAt });
    assert.equal(await accounts.takeChallenge('c1', Date.now()), undefined, 'taken once');
    assert.equal(await accounts.takeChallenge('old', Date.now()), undefined, 'expired');
    const key = { id: 'cred-1', playerId: alice.id, publicKey: 'pk', counter: 0, transports: ['internal'], createdAt: new Date().toISOString() };
    await accounts.addPasskey(key);
    await assert.rejects(() => accounts.addPasskey({ ...key, playerId: guest.id }), 'a credential id is registered once');
    assert.deepEqual(await accounts.passkey('cred-1'), key);
    assert.deepEqual(await accounts.passkeys(alice.id), [key]);
    assert.deepEqual(await accounts.passkeys(guest.id), []);
    const session = newSessionId();
    await accounts.signIn('cred-1', 5, { hash: sessionHash(session), playerId: alice.id, expiresAt: Date.now() + HOUR }, sessionHash(guest.session));
    assert.equal((await accounts.playerBySession(sessionHash(session), Date.now()))?.id, alice.id);
    assert.equal(await accounts.playerBySession(sessionHash(guest.session), Date.now()), undefined, "the browser's guest session is ended");
    assert.equal((await accounts.passkey('cred-1'))?.counter, 5);
    await games.close();
  });

  test(`${name} accounts: deleting a player frees the name and renames their seats, other seats untouched`, async () => {
    const games = await make();
    const accounts = accountsBeside(games);
    const alice = await newPlayer(accounts, 'Alice');
    const bob = await newPlayer(accounts, 'Bob');
    await accounts.addPasskey({ id: 'cred-a', playerId: alice.id, publicKey: 'pk', counter: 0, transports: [], createdAt: new Date().toISOString() });
    await games.create(setup('g1'), [
      { name: 'Alice', tokenHash: 'aa'.repeat(32), playerId: alice.id },
      { name: 'Bob', tokenHash: 'bb'.repeat(32), playerId: bob.id },
    ]);
    await games.appendMoves('g1', [], { abandoned: true, scores: [0, 0] });
    await games.create(setup('g2'), [{ name: 'Alice', tokenHash: 'cc'.repeat(32), playerId: alice.id }, null]);
    assert.equal(await accounts.deletePlayer(alice.id, DELETED_NAME, new Date().toISOString()), true);
    assert.equal(await accounts.deletePlayer(alice.id, DELETED_NAME, new Date().toISOString()), false, 'once');
    assert.deepEqual((await games.get('g1'))?.holders, [
      { name: DELETED_NAME, tokenHash: 'aa'.repeat(32) },
      { name: 'Bob', tokenHash: 'bb'.repeat(32), playerId: bob.id },
    ]);
    assert.deepEqual((await games.get('g2'))?.holders, [{ name: DELETED_NAME, tokenHash: 'cc'.repeat(32) }, null]);
    assert.equal((await games.list({ finished: true, player: 'Alice' })).games.length, 0, 'the name is gone from the finished-games search');
    assert.equal((await games.list({ finished: true, playerId: alice.id })).games.length, 0);
    assert.equal(await accounts.player(alice.id), undefined);
    assert.equal(await accounts.playerBySession(sessionHash(alice.session), Date.now()), undefined, 'sessions gone');
    assert.equal(await accounts.passkey('cred-a'), undefined, 'passkeys gone');
    assert.equal((await accounts.playerBySession(sessionHash(bob.session), Date.now()))?.name, 'Bob');
    await newPlayer(accounts, 'alice');
    await games.close();
  });
}
