// Turn-based play end to end in two browsers (issue U's proof): Ann and Ben, each in a browser
// context of their own, opt in to notifications and play a turn-based game turn after turn by
// clicking. Each turn that passes to a player away from the game goes, from the real server's Web
// Push sender, to a push service on loopback run by this test (test/support/push-service.ts: the
// VAPID signature checked, the payload decrypted as RFC 8291 says); the decrypted message is then
// handed to that player's service worker through Chromium's DevTools protocol
// (ServiceWorker.deliverPushMessage), which shows the notification and tells the page, whose
// badge on "Your games" shows 1; the player opens the notification's game, moves, and the badge
// is gone. A browser context here is incognito-like: Chromium refuses pushManager.subscribe there
// (and its subscriptions go to Google's push service, out of reach), so the device registered is
// a subscription made on the loopback service, posted from the player's page as the client posts
// its own (POST /api/me/devices). Screenshots: test-results/e2e/u2-*.png.
//
// Needs `npm run build` (the bot worker and the client bundle with its service worker).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { PushMessage } from '../server/wire/push.ts';
import { type E2E, SHOTS, shot, startE2E } from './support/e2e.ts';
import { CHROMIUM, needing } from './support/needs.ts';
import { type BrowserSubscription, type PushService, type ReceivedPush, startPushService } from './support/push-service.ts';
import { pageApi as api, activatedWorker } from './support/page-api.ts';

// The loopback push service's certificate is its own: the server's sender (in this process) must accept it.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

const { test, before, after } = needing([CHROMIUM]);

/** Moves in the test: two each. */
const TURNS = 4;
const PHONE = { width: 390, height: 844 };

let e2e: E2E;
let service: PushService;
let base: string;
before(async () => {
  service = await startPushService();
  e2e = await startE2E();
  // localhost: a secure context, where the service worker and notifications work.
  base = e2e.base.replace('127.0.0.1', 'localhost');
});
after(async () => {
  await e2e?.close();
  await service?.close();
});

interface Player {
  name: string;
  context: BrowserContext;
  page: Page;
  errors: string[];
  cdp: CDPSession;
  /** The service worker's registration, as the DevTools protocol names it. */
  registrationId: string;
  device: BrowserSubscription;
}

/** Signed in, notifications allowed and asked for on the player page (the worker registered),
 * and a device on the loopback push service stored for the player. */
async function player(name: string, viewport?: { width: number; height: number }): Promise<Player> {
  const { context, page, errors } = await e2e.newPage(viewport);
  await context.grantPermissions(['notifications'], { origin: base });
  await page.goto(`${base}/#/me`);
  assert.equal((await api(page, 'POST', '/api/session', { name })).status, 201);
  await page.reload();
  const cdp = await context.newCDPSession(page);
  const activated = activatedWorker(cdp);
  await page.getByRole('button', { name: 'Notify me on this device' }).click();
  const registrationId = await activated;
  await page.locator('#toast', { hasText: 'refused to subscribe' }).waitFor();
  const device = service.subscribe();
  const stored = await api(page, 'POST', '/api/me/devices', { subscription: { endpoint: device.endpoint, expirationTime: null, keys: device.keys }, label: `${name}'s browser` });
  assert.equal(stored.status, 201, JSON.stringify(stored.body));
  return { name, context, page, errors, cdp, registrationId, device };
}

/** The next push the loopback service decrypted (the `seen`-th: it receives only this test's)
 * and the player whose device it was for. */
async function nextPush(players: Player[], seen: number): Promise<{ push: ReceivedPush; to: Player }> {
  const [push] = (await service.waitFor(seen + 1, 30_000)).slice(seen);
  const to = players.find((p) => p.device.endpoint === push.endpoint);
  assert.ok(to, `a push to one of the players: ${push.endpoint}`);
  return { push, to };
}

interface Shown {
  title: string;
  body: string;
  tag: string;
  data: { url: string; games: { gameId: string; turn: number }[] };
}

/** The notifications the player's service worker shows now. */
const shownNotifications = (page: Page): Promise<Shown[]> =>
  page.evaluate(async () => {
    const registration = await (globalThis as any).navigator.serviceWorker.getRegistration('/');
    return ((await registration.getNotifications()) as Shown[]).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
  });

/** Closes the shown notifications, as the worker does when one is clicked. */
const closeNotifications = (page: Page): Promise<void> =>
  page.evaluate(async () => {
    const registration = await (globalThis as any).navigator.serviceWorker.getRegistration('/');
    for (const n of await registration.getNotifications()) n.close();
  });

/** The number on the badge of "Your games" (0: no badge). */
const badgeOf = (page: Page): Promise<number> => page.evaluate(() => Number((globalThis as any).document.querySelector('#mine-title .waiting-badge')?.textContent ?? 0));

const waitBadge = (page: Page, n: number): Promise<unknown> =>
  page.waitForFunction((want) => Number((globalThis as any).document.querySelector('#mine-title .waiting-badge')?.textContent ?? 0) === want, n);

test('two players in two browsers play a turn-based game: each turn pushed to a loopback push service, decrypted, shown by the service worker, counted on the badge', {
  timeout: 180_000,
}, async () => {
  const ann = await player('Annika Push');
  const ben = await player('Benedikt Push', PHONE);
  const serverKey = (await api(ann.page, 'GET', '/api/push/key')).body.publicKey;

  const made = await api(ann.page, 'POST', '/api/games', {
    seats: [{ kind: 'person' }, { kind: 'person', player: ben.name }],
    pace: { kind: 'turnBased', moveDays: 1 },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id: string = made.body.id;
  const gameUrl = `/#/g/${id}`;
  for (const p of [ann, ben]) assert.equal((await api(p.page, 'POST', `/api/games/${id}/seats`, { name: p.name })).status, 201);

  // Ben, challenged by name, was told so first (once), before any turn.
  const { push: challenge, to: challenged } = await nextPush([ann, ben], 0);
  const challengeMessage: PushMessage = JSON.parse(challenge.text);
  assert.deepEqual([challenged, challengeMessage.kind, challengeMessage.games[0]?.gameId, challengeMessage.by], [ben, 'challenge', id, ann.name]);

  // Both wait in the lobby, away from the game: whoever is to move is told.
  for (const p of [ann, ben]) await p.page.goto(`${base}/#/`);
  const told = new Map([
    [ann, 0],
    [ben, 0],
  ]);
  let lastTurn = -1;
  let lastMover: Player | null = null;
  for (let move = 0; move < TURNS; move++) {
    const { push, to: waiting } = await nextPush([ann, ben], move + 1);
    const other = waiting === ann ? ben : ann;
    told.set(waiting, (told.get(waiting) ?? 0) + 1);
    assert.notEqual(waiting, lastMover, 'the push goes to the player whose turn it is, not the one who moved');

    // What the server sent, decrypted as the browser would: this game, its turn, a day to move, signed with the server's key.
    const message: PushMessage = JSON.parse(push.text);
    assert.equal(message.kind, 'turn');
    assert.equal(message.games.length, 1, push.text);
    const [turn] = message.games;
    assert.equal(turn.gameId, id);
    assert.equal(turn.url, gameUrl);
    assert.ok(turn.turn > lastTurn, `turn ${turn.turn} after ${lastTurn}`);
    assert.ok(turn.deadline !== null && Math.abs(turn.deadline - (Date.now() + 86_400_000)) < 120_000, `a day to move: ${turn.deadline}`);
    assert.equal(message.waiting, 1);
    assert.equal(push.vapid.k, serverKey, 'signed with the server’s VAPID key');
    assert.equal(push.headers['content-encoding'], 'aes128gcm');

    // The player's service worker gets it (as Chromium hands it a push): it shows the notification and the page counts the game.
    await waiting.cdp.send('ServiceWorker.deliverPushMessage', { origin: base, registrationId: waiting.registrationId, data: push.text });
    await waitBadge(waiting.page, 1);
    assert.match(await waiting.page.title(), /^\(1\) /);
    assert.equal(await badgeOf(other.page), 0, `${other.name} has moved: nothing waits for them`);
    await waiting.page.waitForFunction(async () => ((await (await (globalThis as any).navigator.serviceWorker.getRegistration('/')).getNotifications()) as unknown[]).length === 1);
    const [shown] = await shownNotifications(waiting.page);
    assert.deepEqual([shown.title, shown.body, shown.tag, shown.data.url], ['Your turn', 'A game waits for your move (23 h left).', 'tessera-turns', gameUrl]);
    assert.deepEqual(
      shown.data.games.map((g) => [g.gameId, g.turn]),
      [[id, turn.turn]],
    );
    // "Your games" follows the badge (the lobby redraws it when the waiting games change).
    await waiting.page.locator('[data-list=mine]', { hasText: 'your turn' }).waitFor();
    assert.match((await waiting.page.textContent('[data-list=mine]')) ?? '', /turn-based · 1 day a move · your turn · (23 h \d+ min|1 d 0 h) left/);
    const device = waiting === ben ? 'phone' : 'desktop';
    if (told.get(waiting) === 1) {
      await waiting.page.locator('#toast.show').waitFor({ state: 'hidden' });
      await waiting.page.locator('section.my-games').scrollIntoViewIfNeeded();
      await shot(waiting.page, `u2-your-games-badge-${device}`);
      await waiting.page.locator('section.my-games').screenshot({ path: join(SHOTS, `u2-badge-${device}.png`) });
    }

    // Opened from the notification (its click closes it and goes to its URL): the game, this player's turn, the one told.
    await closeNotifications(waiting.page);
    await waiting.page.goto(`${base}${shown.data.url}`);
    const game = waiting.page.locator('.game.my-turn');
    await game.waitFor();
    assert.equal(Number(await game.getAttribute('data-turn')), turn.turn, 'the turn told is the one to play');
    assert.match((await waiting.page.textContent('.turn-box')) ?? '', /turn-based · 1 day a move/);
    if (told.get(waiting) === 2) {
      // Back after the other's move: it is replayed and listed ("since you last looked").
      const banner = waiting.page.locator('.since-banner');
      await banner.waitFor({ state: 'visible' });
      assert.match((await banner.textContent()) ?? '', new RegExp(`Since you last looked · 1 move by the others.*${other.name} placed`));
      await waiting.page.waitForFunction(() => (globalThis as any).document.querySelector('.since-banner')?.dataset.step === '2');
      await shot(waiting.page, `u2-since-${device}`);
      await waiting.page.click('[data-action=close-since]');
    }

    // A move by keyboard and the Confirm button; back in the lobby, the badge is gone.
    await waiting.page.keyboard.press('n');
    await waiting.page.waitForSelector('.layer-tentative .tentative');
    await waiting.page.click('[data-action=confirm]');
    await waiting.page.waitForFunction((t) => Number((globalThis as any).document.querySelector('.game')?.dataset.turn) > t, turn.turn);
    await waiting.page.goto(`${base}/#/`);
    await waiting.page.locator('[data-list=mine]', { hasText: `${other.name}’s turn` }).waitFor();
    await waitBadge(waiting.page, 0);
    assert.doesNotMatch(await waiting.page.title(), /^\(\d+\) /);
    lastTurn = turn.turn;
    lastMover = waiting;
  }
  // The last move passed the turn on too: told, once, to the other.
  const { push: last, to } = await nextPush([ann, ben], TURNS + 1);
  assert.notEqual(to, lastMover);
  assert.ok((JSON.parse(last.text) as PushMessage).games[0].turn > lastTurn);
  assert.deepEqual([...told.values()], [TURNS / 2, TURNS / 2], 'each player was told of each of their turns, once');
  assert.equal(service.received.length, TURNS + 2, 'and nothing else was sent');
  const known = /does not support the Push API in incognito mode/;
  assert.deepEqual(
    [...ann.errors, ...ben.errors].filter((e) => !known.test(e)),
    [],
  );
});
