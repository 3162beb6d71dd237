// Turn notifications in a real browser (issue U): the player's page offers notifications on this
// device (the service worker registered at /sw.js with the whole site as its scope); the worker's
// push handler is exercised through Chromium's DevTools protocol (ServiceWorker.deliverPushMessage)
// and the notification it shows is read back (registration.getNotifications()), a second game
// folded into the same one; the devices list removes a device; the tab title and a badge on
// "Your games" count the games waiting for the player. Screenshots: test-results/e2e/u-*.png.
//
// Needs `npm run build` (the bot worker and the client bundle with its service worker).

import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { PushMessage } from '../server/wire/push.ts';
import { CHROMIUM, needing } from './support/needs.ts';
import { join } from 'node:path';
import { type E2E, SHOTS, axeProblems, smallTargets, startE2E } from './support/e2e.ts';
import { pageApi as api, activatedWorker } from './support/page-api.ts';

const { test, before, after } = needing([CHROMIUM]);

let e2e: E2E;
let base: string;
before(async () => {
  e2e = await startE2E();
  base = e2e.base.replace('127.0.0.1', 'localhost');
});
after(() => e2e?.close());

interface Shown {
  title: string;
  body: string;
  tag: string;
  data: { url: string; games: { gameId: string }[] };
}

/** The notifications the worker's registration shows now (the page's view of them). */
const shownNotifications = (page: Page): Promise<Shown[]> =>
  page.evaluate(async () => {
    const registration = await (globalThis as any).navigator.serviceWorker.getRegistration('/');
    const shown: Shown[] = (await registration?.getNotifications()) ?? [];
    return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
  });

const shownCount = async (page: Page, n: number, title: string) => {
  for (let i = 0; i < 200; i++) {
    const shown = await shownNotifications(page);
    if (shown.length === n && shown[0]?.title === title) return shown;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`${n} notification(s) titled ${title}: ${JSON.stringify(await shownNotifications(page))}`);
};

test('opt in on the player page; a push shows a notification that folds the next game in; devices listed and removed; the waiting count in the title and on "Your games"', async () => {
  const { context, page, errors } = await e2e.newPage({ width: 390, height: 844 });
  await context.grantPermissions(['notifications'], { origin: base });
  await page.goto(`${base}/#/me`);
  assert.equal((await api(page, 'POST', '/api/session', { name: 'Push Player' })).status, 201);
  await page.reload();
  await page.getByRole('heading', { name: 'Notifications' }).waitFor();

  // Opting in registers the worker; a browser context here is incognito-like, where Chromium
  // refuses the Push API's subscription itself (and it would need Google's push service): the
  // page says so, and the worker's push handler is driven through the DevTools protocol instead.
  const cdp = await context.newCDPSession(page);
  const registrationId = activatedWorker(cdp);
  await page.getByRole('button', { name: 'Notify me on this device' }).click();
  const id = await registrationId;
  await page.locator('#toast', { hasText: 'refused to subscribe' }).waitFor();
  const scope = await page.evaluate(async () => (await (globalThis as any).navigator.serviceWorker.getRegistration('/'))?.scope);
  assert.equal(scope, `${base}/`, 'the worker covers the whole site');
  const sw = await fetch(`${e2e.base}/sw.js`);
  assert.equal(sw.headers.get('cache-control'), 'no-cache');

  const soon = Date.now() + 5 * 3_600_000 + 60_000;
  const first: PushMessage = { kind: 'turn', games: [{ gameId: 'g_first', turn: 4, deadline: soon, url: '/#/g/g_first' }], waiting: 1 };
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: base, registrationId: id, data: JSON.stringify(first) });
  let shown = await shownCount(page, 1, 'Your turn');
  assert.deepEqual(
    shown.map((n) => [n.title, n.body, n.tag, n.data.url]),
    [['Your turn', 'A game waits for your move (5 h left).', 'tessera-turns', '/#/g/g_first']],
  );

  const second: PushMessage = { kind: 'turn', games: [{ gameId: 'g_second', turn: 9, deadline: null, url: '/#/g/g_second' }], waiting: null };
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: base, registrationId: id, data: JSON.stringify(second) });
  shown = await shownCount(page, 1, 'Your turn in 2 games');
  assert.deepEqual(shown[0].data.games.map((g) => g.gameId).sort(), ['g_first', 'g_second']);
  assert.equal(shown[0].data.url, '/#/', 'several games open "Your games"');

  // Another device of the player's (subscribed elsewhere): listed, and removed here.
  const elsewhere = {
    endpoint: 'https://push.example.net/wpush/v2/elsewhere',
    keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' },
  };
  assert.equal((await api(page, 'POST', '/api/me/devices', { subscription: elsewhere, label: 'Firefox on Android' })).status, 201);
  await page.reload();
  const row = page.locator('.device-list .device', { hasText: 'Firefox on Android' });
  await row.waitFor();
  await page.locator('section:has(#notify-title)').screenshot({ path: join(SHOTS, 'u-devices.png') });
  assert.deepEqual(await axeProblems(page), [], 'the player page with notifications');
  assert.deepEqual(await smallTargets(page), [], 'the player page with notifications');
  await row.getByRole('button', { name: 'Remove Firefox on Android' }).click();
  await page.locator('.device-list', { hasText: 'None yet.' }).waitFor();
  assert.deepEqual((await api(page, 'GET', '/api/me/devices')).body, { devices: [] });

  // A game against a bot: once it is the player's move, the lobby counts it.
  const game = await api(page, 'POST', '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }] });
  assert.equal(game.status, 201, JSON.stringify(game.body));
  assert.equal((await api(page, 'POST', `/api/games/${game.body.id}/seats`, { name: 'Push Player' })).status, 201);
  await page.goto(`${base}/#/`);
  const badge = page.locator('#mine-title .waiting-badge');
  await badge.waitFor();
  assert.equal(await badge.textContent(), '1');
  assert.equal(await badge.getAttribute('aria-label'), 'A game waits for your move');
  assert.match(await page.title(), /^\(1\) /);
  await page.locator('section.my-games').screenshot({ path: join(SHOTS, 'u-badge.png') });
  assert.deepEqual(
    errors.filter((e) => !/does not support the Push API in incognito mode/.test(e)),
    [],
  );
});
