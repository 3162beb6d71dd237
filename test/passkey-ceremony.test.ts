// The passkey ceremony on its own (server/players/passkey-ceremony.ts), over a real SQLite
// account store and a software authenticator: each step is a named function, so a failure's
// stack says which step of the ceremony it happened in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { newPlayerId, newSessionId, type PlayerStore, sessionHash } from '../server/players/store.ts';
import { sqliteBackend } from '../server/storage/sqlite/backend.ts';
import { PasskeyCeremony, relyingParty } from '../server/players/passkey-ceremony.ts';
import { SoftAuthenticator } from './support/soft-authenticator.ts';

const rp = relyingParty('http://localhost:80');
// The authenticator's answers as a browser sends them (the route's body, checked by the verification).
const created = (a: SoftAuthenticator, options: { challenge: string; user: { id: string } }) => a.create({ ...options, rp: { id: rp.id } }, rp.origin) as RegistrationResponseJSON;
const asserted = (a: SoftAuthenticator, options: { challenge: string }) => a.get({ ...options, rpId: rp.id }, rp.origin) as AuthenticationResponseJSON;
const session = () => ({ hash: sessionHash(newSessionId()), expiresAt: Date.now() + 86_400_000 });

test('a passkey is added and signs the player in through the named steps; a store failing mid-ceremony names the step', async () => {
  const backend = sqliteBackend({ path: ':memory:' });
  const { players } = backend;
  const ceremony = new PasskeyCeremony(players);
  const authenticator = new SoftAuthenticator();
  const player = { id: newPlayerId(), name: 'Ceremony', createdAt: new Date().toISOString() };
  await players.createPlayer(player, { ...session(), playerId: player.id });

  const creation = await ceremony.registrationOptions(rp, player);
  await ceremony.register(rp, player, created(authenticator, creation));
  assert.equal((await players.passkeys(player.id)).length, 1);

  const fresh = session();
  const signedIn = await ceremony.signIn(rp, asserted(authenticator, await ceremony.signInOptions(rp)), fresh, null);
  assert.equal(signedIn.id, player.id);
  assert.equal((await players.playerBySession(fresh.hash, Date.now()))?.id, player.id);

  const answer = asserted(authenticator, await ceremony.signInOptions(rp));
  await backend.close();
  await assert.rejects(ceremony.signIn(rp, answer, session(), null), (err: Error) => {
    assert.match(err.stack ?? '', /PasskeyCeremony\.verifySignIn[\s\S]*PasskeyCeremony\.signIn/);
    return true;
  });
});

test('a host that is not one is a bad request, not a relying party', () => {
  assert.deepEqual(relyingParty('https://play.example:8443'), { origin: 'https://play.example:8443', id: 'play.example' });
  assert.throws(() => relyingParty('http://'), { code: 'bad_request' });
});

test('a player deleted while their sign-in is verified is refused (passkey_refused), not a server fault, and gets no session', async () => {
  const backend = sqliteBackend({ path: ':memory:' });
  const { players } = backend;
  const authenticator = new SoftAuthenticator();
  const player = { id: newPlayerId(), name: 'Leaving', createdAt: new Date().toISOString() };
  await players.createPlayer(player, { ...session(), playerId: player.id });
  const ceremony = new PasskeyCeremony(players);
  await ceremony.register(rp, player, created(authenticator, await ceremony.registrationOptions(rp, player)));
  // The deletion (DELETE /api/me from another device) lands just after the ceremony read the player.
  const deletedOnRead = async (id: string) => {
    const found = await players.player(id);
    await players.deletePlayer(id, 'Deleted player', new Date().toISOString());
    return found;
  };
  const racing = new PasskeyCeremony(Object.assign(Object.create(players) as PlayerStore, { player: deletedOnRead }));
  const fresh = session();
  await assert.rejects(racing.signIn(rp, asserted(authenticator, await ceremony.signInOptions(rp)), fresh, null), { code: 'passkey_refused' });
  assert.equal(await players.playerBySession(fresh.hash, Date.now()), undefined);
  await backend.close();
});
