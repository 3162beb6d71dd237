// The PushStore contract over every backend (memory, SQLite with and without the server's
// threads, a private PostgreSQL): one VAPID key pair whoever stores first, a player's devices
// (an endpoint subscribing again moves, keeping its id), a notification claimed once, old claims
// pruned, and a deleted or swept player's devices gone with them.
import assert from 'node:assert/strict';
import { type PlayerStore, newPlayerId, newSessionId, sessionHash } from '../server/players/store.ts';
import { newDeviceId, type PushDevice } from '../server/push/store.ts';
import { vapidKeysOf } from '../server/push/vapid.ts';
import { everyStore } from './support/every-store.ts';

const { test, backends } = everyStore('push');

async function newPlayer(players: PlayerStore, name: string, createdAt = Date.now()): Promise<string> {
  const id = newPlayerId();
  await players.createPlayer({ id, name, createdAt: new Date(createdAt).toISOString() }, { hash: sessionHash(newSessionId()), playerId: id, expiresAt: Date.now() + 3_600_000 });
  return id;
}

const device = (playerId: string, endpoint: string, createdAt = new Date().toISOString()): PushDevice => ({
  id: newDeviceId(),
  playerId,
  endpoint,
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
  label: 'Firefox on Linux',
  createdAt,
});

for (const [name, make] of backends) {
  test(`${name} push: the VAPID keys are made once and every caller gets the stored pair`, async () => {
    const { push } = await make();
    const first = await vapidKeysOf(push);
    const second = await vapidKeysOf(push);
    assert.deepEqual(second, first, 'a second start reads the stored pair');
    assert.match(first.publicKey, /^[A-Za-z0-9_-]{87}$/, 'an uncompressed P-256 point, base64url');
    assert.match(first.privateKey, /^[A-Za-z0-9_-]{43}$/);
    const racing = await Promise.all([vapidKeysOf(push), vapidKeysOf(push), vapidKeysOf(push)]);
    for (const keys of racing) assert.deepEqual(keys, first);
  });

  test(`${name} push: devices per player, moved when their endpoint subscribes again, removed by their player only`, async () => {
    const { players, push } = await make();
    const alice = await newPlayer(players, 'Alice');
    const bob = await newPlayer(players, 'Bob');
    const phone = await push.saveDevice(device(alice, 'https://push.example/a', '2026-11-28T07:00:00.000Z'));
    const laptop = await push.saveDevice(device(alice, 'https://push.example/b', '2026-11-28T07:01:00.000Z'));
    assert.deepEqual(
      (await push.devices(alice)).map((d) => d.id),
      [phone.id, laptop.id],
    );
    assert.deepEqual(await push.devices(bob), []);

    const again = await push.saveDevice({ ...device(bob, 'https://push.example/a'), label: 'Bob’s now', auth: 'bmV3IGF1dGggc2VjcmV0IQ' });
    assert.equal(again.id, phone.id, 'the same endpoint keeps its id');
    assert.equal(again.playerId, bob);
    assert.equal(again.auth, 'bmV3IGF1dGggc2VjcmV0IQ');
    assert.deepEqual(
      (await push.devices(alice)).map((d) => d.id),
      [laptop.id],
      'a browser notifies one player: the last to subscribe',
    );
    assert.deepEqual(
      (await push.devices(bob)).map((d) => d.label),
      ['Bob’s now'],
    );

    assert.equal(await push.removeDevice(bob, laptop.id), false, 'another player’s device');
    assert.equal(await push.removeDevice(alice, laptop.id), true);
    assert.equal(await push.removeDevice(alice, laptop.id), false, 'removed once');
    await push.dropEndpoint('https://push.example/a');
    assert.deepEqual(await push.devices(bob), []);
  });

  test(`${name} push: each notification is claimed once, in one call or across calls, and old claims are pruned`, async () => {
    const { push } = await make();
    const t = (gameId: string, turn: number, kind: 'turn' | 'reminder' = 'turn') => ({ playerId: 'p_a', gameId, turn, kind });
    assert.deepEqual(await push.claim([t('g1', 3), t('g2', 5)], 1_000), [t('g1', 3), t('g2', 5)]);
    assert.deepEqual(await push.claim([t('g1', 3), t('g1', 4), t('g1', 3, 'reminder')], 2_000), [t('g1', 4), t('g1', 3, 'reminder')]);
    const racing = await Promise.all([push.claim([t('g9', 1)], 3_000), push.claim([t('g9', 1)], 3_000), push.claim([t('g9', 1)], 3_000)]);
    assert.equal(racing.flat().length, 1, 'one of three racing claims wins');
    assert.equal(await push.pruneClaims(2_000), 2, 'the two claimed at 1000');
    assert.deepEqual(await push.claim([t('g1', 3)], 4_000), [t('g1', 3)], 'pruned: claimable again');
  });

  test(`${name} push: a deleted player's devices go with them, and a swept guest's too`, async () => {
    const { players, push } = await make();
    const alice = await newPlayer(players, 'Alice');
    await push.saveDevice(device(alice, 'https://push.example/alice'));
    assert.equal(await players.deletePlayer(alice, 'deleted player', new Date().toISOString()), true);
    assert.deepEqual(await push.devices(alice), []);

    const idle = await newPlayer(players, 'Idle', Date.now() - 100 * 86_400_000);
    await push.saveDevice(device(idle, 'https://push.example/idle'));
    const swept = await players.sweep(Date.now(), Date.now() - 30 * 86_400_000);
    assert.equal(swept.guests, 1, 'the idle guest is swept, devices and all');
    assert.deepEqual(await push.devices(idle), []);
    const bob = await newPlayer(players, 'Bob');
    const moved = await push.saveDevice(device(bob, 'https://push.example/idle'));
    assert.equal(moved.playerId, bob, 'the swept guest’s endpoint is free for another');
  });
}
