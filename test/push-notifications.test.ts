// Turn notifications sent for real: the server's TurnNotifications, on a real store, POSTs to a
// push service on loopback (test/support/push-service.ts), which checks the VAPID signature and
// decrypts each payload as RFC 8291 says. One notification per game and turn (also after a
// restart and from a second instance: the claim is stored), a player's turns folded into one,
// nothing for a game the player is watching, a reminder once, a gone subscription dropped.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { TurnNotifications, type TurnNotificationOptions } from '../server/push/notifications.ts';
import { newPlayerId, newSessionId, sessionHash } from '../server/players/store.ts';
import { newDeviceId, type PushStore } from '../server/push/store.ts';
import { vapidKeysOf } from '../server/push/vapid.ts';
import { sqliteBackend } from '../server/storage/sqlite/backend.ts';
import type { Backend } from '../server/plugins/store.ts';
import type { PushMessage } from '../server/wire/push.ts';
import { everyStore } from './support/every-store.ts';
import { type PushService, startPushService } from './support/push-service.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { test, postgresUrl } = everyStore('pushsend');
const quiet = { warn: () => {}, debug: () => {} };
const SUBJECT = 'mailto:ops@tessera.example';

let service: PushService;
before(async () => {
  service = await startPushService();
});
after(() => service.close());

async function playerWithDevice(backend: Backend): Promise<{ playerId: string; endpoint: string }> {
  const playerId = newPlayerId();
  await backend.players.createPlayer(
    { id: playerId, name: `P${playerId.slice(2, 10)}`, createdAt: new Date().toISOString() },
    { hash: sessionHash(newSessionId()), playerId, expiresAt: Date.now() + 3_600_000 },
  );
  const sub = service.subscribe();
  await backend.push.saveDevice({ id: newDeviceId(), playerId, endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth, label: 'test', createdAt: new Date().toISOString() });
  return { playerId, endpoint: sub.endpoint };
}

async function notifier(store: PushStore, options: Partial<TurnNotificationOptions> = {}): Promise<TurnNotifications> {
  return new TurnNotifications({ store, keys: await vapidKeysOf(store), subject: SUBJECT, isWatching: () => false, foldMs: 50, log: quiet, agent: service.agent, ...options });
}

const sqlite = () => sqliteBackend({ path: join(mkdtempSync(join(tmpdir(), 'tessera-pushsend-')), 'games.db') });
const messagesTo = (endpoint: string): PushMessage[] => service.received.filter((r) => r.endpoint === endpoint).map((r) => JSON.parse(r.text));

test('a turn is pushed to every device of the player, encrypted (RFC 8291) and signed (RFC 8292) with the stored keys', async () => {
  const backend = sqlite();
  const { playerId, endpoint } = await playerWithDevice(backend);
  const sub2 = service.subscribe();
  await backend.push.saveDevice({ id: newDeviceId(), playerId, endpoint: sub2.endpoint, p256dh: sub2.keys.p256dh, auth: sub2.keys.auth, label: 'phone', createdAt: new Date().toISOString() });
  const push = await notifier(backend.push, { waitingCount: async () => 4 });
  const deadline = Date.now() + 86_400_000;
  const seen = service.received.length;
  await push.yourTurn({ playerId, gameId: 'g_one', turn: 7, deadline });
  const arrived = (await service.waitFor(seen + 2)).slice(seen);
  assert.deepEqual(arrived.map((r) => r.endpoint).sort(), [endpoint, sub2.endpoint].sort());
  for (const r of arrived) {
    assert.deepEqual(JSON.parse(r.text), { kind: 'turn', games: [{ gameId: 'g_one', turn: 7, deadline, url: '/#/g/g_one' }], waiting: 4 });
    assert.equal(r.vapid.k, push.publicKey, 'signed with the stored key');
    assert.equal(r.vapid.aud, service.origin);
    assert.equal(r.vapid.sub, SUBJECT);
    const ttl = Number(r.headers.ttl);
    assert.ok(ttl > 86_300 && ttl <= 86_400, `kept until the deadline: TTL ${ttl}`);
  }
  await backend.close();
});

test('one notification per game and turn: again, after a restart, from a second instance: sent once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-pushsend-'));
  const first = sqliteBackend({ path: join(dir, 'games.db') });
  const { playerId, endpoint } = await playerWithDevice(first);
  const push = await notifier(first.push);
  await push.yourTurn({ playerId, gameId: 'g_a', turn: 3, deadline: null });
  await push.yourTurn({ playerId, gameId: 'g_a', turn: 3, deadline: null });
  assert.equal(messagesTo(endpoint).length, 1);
  const gathered = push.yourTurn({ playerId, gameId: 'g_b', turn: 1, deadline: null });
  await push.close();
  await gathered;
  assert.equal(messagesTo(endpoint).length, 2, 'a turn gathered when the server closes is sent before the store closes');
  await push.yourTurn({ playerId, gameId: 'g_c', turn: 1, deadline: null });
  await first.close();

  const restarted = sqliteBackend({ path: join(dir, 'games.db') });
  const again = await notifier(restarted.push);
  assert.equal(again.publicKey, push.publicKey, 'the keys survive the restart');
  await again.yourTurn({ playerId, gameId: 'g_a', turn: 3, deadline: null });
  assert.equal(messagesTo(endpoint).length, 2, 'the stored claim holds after a restart');
  await again.yourTurn({ playerId, gameId: 'g_a', turn: 5, deadline: null });
  assert.equal(messagesTo(endpoint).length, 3, 'the next turn is told');
  assert.equal(again.counts.skippedClaimed, 1);
  await restarted.close();
});

test('a cluster: two instances on one PostgreSQL hear the same turns; each goes out exactly once', async () => {
  const { postgresBackend } = await import('../server/storage/postgres/backend.ts');
  const url = await postgresUrl();
  const [a, b] = await Promise.all([postgresBackend({ url }), postgresBackend({ url })]);
  const { playerId, endpoint } = await playerWithDevice(a);
  const [pa, pb] = await Promise.all([notifier(a.push, { foldMs: 0 }), notifier(b.push, { foldMs: 0 })]);
  assert.equal(pa.publicKey, pb.publicKey, 'one key pair for the cluster');
  const turns = Array.from({ length: 10 }, (_, i) => ({ playerId, gameId: `g_${i % 5}`, turn: i, deadline: null }));
  await Promise.all(turns.flatMap((t) => [pa.yourTurn(t), pb.yourTurn(t)]));
  const told = messagesTo(endpoint).flatMap((m) => m.games.map((g) => `${g.gameId}@${g.turn}`));
  assert.deepEqual(told.sort(), turns.map((t) => `${t.gameId}@${t.turn}`).sort(), 'every turn told once, none twice');
  assert.equal(pa.counts.skippedClaimed + pb.counts.skippedClaimed, 10, 'the other instance lost each claim');
  await Promise.all([a.close(), b.close()]);
});

test("a player's turns within the fold window go out as one notification", async () => {
  const backend = sqlite();
  const { playerId, endpoint } = await playerWithDevice(backend);
  const push = await notifier(backend.push, { foldMs: 200 });
  await Promise.all([
    push.yourTurn({ playerId, gameId: 'g_x', turn: 1, deadline: Date.now() + 3_600_000 }),
    push.yourTurn({ playerId, gameId: 'g_y', turn: 4, deadline: Date.now() + 7_200_000 }),
    push.yourTurn({ playerId, gameId: 'g_z', turn: 9, deadline: null }),
    push.yourTurn({ playerId, gameId: 'g_z', turn: 9, deadline: null }),
  ]);
  const messages = messagesTo(endpoint);
  assert.equal(messages.length, 1, 'one message');
  assert.deepEqual(
    messages[0].games.map((g) => g.gameId),
    ['g_x', 'g_y', 'g_z'],
  );
  assert.ok(Number(service.received.find((r) => r.endpoint === endpoint)?.headers.ttl) <= 3_600, 'kept until the earliest deadline');

  const many = Array.from({ length: 45 }, (_, i) => ({ playerId, gameId: `g_many_${i}_${'x'.repeat(30)}`, turn: 100 + i, deadline: Date.now() + 86_400_000 }));
  await Promise.all(many.map((t) => push.yourTurn(t)));
  const folded = messagesTo(endpoint)[1];
  assert.equal(folded.games.length, 20, 'a message names 20 games at most: push payloads are small');
  assert.ok(Buffer.byteLength(JSON.stringify(folded)) < 3_000);
  assert.equal(messagesTo(endpoint).length, 2, 'still one message');
  await backend.close();
});

test('nothing is sent for a game the player is watching, and nothing is claimed for it', async () => {
  const backend = sqlite();
  const { playerId, endpoint } = await playerWithDevice(backend);
  let watching = true;
  const push = await notifier(backend.push, { isWatching: (p, g) => watching && p === playerId && g === 'g_live' });
  await push.yourTurn({ playerId, gameId: 'g_live', turn: 2, deadline: null });
  await push.reminder({ playerId, gameId: 'g_live', turn: 2, deadline: Date.now() + 60_000 });
  assert.equal(messagesTo(endpoint).length, 0);
  assert.equal(push.counts.skippedWatching, 2);
  watching = false;
  await push.yourTurn({ playerId, gameId: 'g_live', turn: 2, deadline: null });
  assert.equal(messagesTo(endpoint).length, 1, 'once they look away, the turn is told');
  await backend.close();
});

test('a reminder before the deadline is sent once, apart from the turn, at high urgency', async () => {
  const backend = sqlite();
  const { playerId, endpoint } = await playerWithDevice(backend);
  const push = await notifier(backend.push);
  const deadline = Date.now() + 2 * 3_600_000;
  await push.yourTurn({ playerId, gameId: 'g_r', turn: 6, deadline });
  await push.reminder({ playerId, gameId: 'g_r', turn: 6, deadline });
  await push.reminder({ playerId, gameId: 'g_r', turn: 6, deadline });
  const second = await notifier(backend.push);
  await second.reminder({ playerId, gameId: 'g_r', turn: 6, deadline });
  assert.deepEqual(
    messagesTo(endpoint).map((m) => m.kind),
    ['turn', 'reminder'],
  );
  const reminder = service.received.filter((r) => r.endpoint === endpoint)[1];
  assert.equal(reminder.headers.urgency, 'high');
  await backend.close();
});

test('a subscription the push service reports gone (404, 410) is dropped; one failing (500) is kept', async () => {
  const backend = sqlite();
  const { playerId, endpoint } = await playerWithDevice(backend);
  const gone404 = service.subscribe();
  const gone410 = service.subscribe();
  const failing = service.subscribe();
  for (const [sub, label] of [
    [gone404, '404'],
    [gone410, '410'],
    [failing, '500'],
  ] as const) {
    await backend.push.saveDevice({ id: newDeviceId(), playerId, endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth, label, createdAt: new Date().toISOString() });
    service.answer(sub.endpoint, Number(label));
  }
  const warnings: unknown[] = [];
  const push = await notifier(backend.push, { log: { warn: (o: unknown) => warnings.push(o), debug: () => {} } as TurnNotificationOptions['log'] });
  await push.yourTurn({ playerId, gameId: 'g_gone', turn: 1, deadline: null });
  assert.equal(messagesTo(endpoint).length, 1, 'the live device still gets it');
  assert.deepEqual((await backend.push.devices(playerId)).map((d) => d.label).sort(), ['500', 'test']);
  assert.deepEqual(push.counts, { sent: 1, messages: 1, gone: 2, failed: 1, retried: 0, skippedWatching: 0, skippedClaimed: 0 });
  assert.equal(warnings.length, 1, 'one warning line for the failing push service');
  await backend.close();
});

test('a connection closed under the request, unanswered (a kept-alive socket the push service timed out), is tried once more; closed twice, the push is counted failed', async () => {
  const backend = sqlite();
  const { playerId, endpoint } = await playerWithDevice(backend);
  const warnings: unknown[] = [];
  const push = await notifier(backend.push, { log: { warn: (o: unknown) => warnings.push(o), debug: () => {} } as TurnNotificationOptions['log'] });
  service.hangUp(endpoint, 1);
  await push.yourTurn({ playerId, gameId: 'g_reset', turn: 1, deadline: null });
  assert.deepEqual(
    messagesTo(endpoint).map((m) => m.games[0].gameId),
    ['g_reset'],
    'sent again on a new connection: it arrives, once',
  );
  assert.deepEqual([push.counts.sent, push.counts.failed, push.counts.retried], [1, 0, 1]);
  assert.deepEqual(warnings, []);

  service.hangUp(endpoint, 2);
  await push.yourTurn({ playerId, gameId: 'g_reset', turn: 2, deadline: null });
  assert.equal(messagesTo(endpoint).length, 1, 'closed on the second try too: not sent');
  assert.deepEqual([push.counts.sent, push.counts.failed, push.counts.retried], [1, 1, 2], 'tried once more, not twice');
  assert.equal(warnings.length, 1, 'one warning line');
  assert.match(JSON.stringify(warnings[0]), /socket hang up/);
  await backend.close();
});
