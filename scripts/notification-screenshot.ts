// A real screenshot of a turn notification as Chromium draws it: test-results/notification.png.
// Headless Chromium draws no notification, so this runs Chromium with its windows on a virtual X
// screen (Xvfb) and its own notification popups (--disable-features=NativeNotifications: no
// desktop notification daemon is needed), and grabs the screen. The notification is the real
// chain of test/e2e-turn-based-two.test.ts: a player away from their turn-based game against a
// bot is told by the server's Web Push sender, through a push service on loopback that decrypts the
// payload (RFC 8291), handed to the service worker through the DevTools protocol
// (ServiceWorker.deliverPushMessage). Not part of `npm test` nor needed by CI (docs/CLIENT.md).
//
//   apt-get install -y --no-install-recommends xvfb x11-utils imagemagick   # Xvfb, xwininfo, import
//   npm run build && node scripts/notification-screenshot.ts

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startE2E } from '../test/support/e2e.ts';
import { startPushService } from '../test/support/push-service.ts';
import { pageApi as api, activatedWorker } from '../test/support/page-api.ts';

const OUT = fileURLToPath(new URL('../test-results/notification.png', import.meta.url));
const SCREEN = { width: 1280, height: 800 };
/** Chromium's popups are this wide; the window is found by it. */
const POPUP_WIDTH = 360;

for (const program of ['Xvfb', 'xwininfo', 'import']) {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
  } catch {
    console.error(`${program} is needed: apt-get install -y --no-install-recommends xvfb x11-utils imagemagick`);
    process.exit(1);
  }
}

// The server's sender must accept the loopback push service's own certificate.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

// Xvfb names the display it took once it is ready for clients.
const xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', `${SCREEN.width}x${SCREEN.height}x24`, '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'inherit'] });
const display = `:${await new Promise<string>((resolve) => xvfb.stdout.once('data', (d) => resolve(String(d).trim())))}`;
process.env.DISPLAY = display;

const service = await startPushService();
const e2e = await startE2E({ headless: false, args: ['--disable-features=NativeNotifications', `--window-size=${SCREEN.width},${SCREEN.height}`, '--window-position=0,0'] });

/** The X windows on the screen now that look like a notification popup, mapped. */
function popups(): string[] {
  const tree = execFileSync('xwininfo', ['-root', '-children', '-display', display]).toString();
  return [...tree.matchAll(/^\s+(0x[0-9a-f]+) \(has no name\): \(\)\s+(\d+)x(\d+)\+/gm)]
    .filter((m) => Number(m[2]) === POPUP_WIDTH)
    .map((m) => m[1])
    .filter((id) => /Map State: IsViewable/.test(execFileSync('xwininfo', ['-id', id, '-display', display]).toString()));
}

/** The popup's pixels, to see it has settled (drawn, not fading in). */
const grabWindow = (id: string): Buffer => execFileSync('import', ['-display', display, '-window', id, 'rgb:-']);

try {
  const base = e2e.base.replace('127.0.0.1', 'localhost');
  const { context, page } = await e2e.newPage(SCREEN);
  await context.grantPermissions(['notifications'], { origin: base });
  await page.goto(`${base}/#/me`);
  assert.equal((await api(page, 'POST', '/api/session', { name: 'Ada' })).status, 201);
  await page.reload();
  const cdp = await context.newCDPSession(page);
  const activated = activatedWorker(cdp);
  await page.getByRole('button', { name: 'Notify me on this device' }).click();
  const registrationId = await activated;
  // The context is incognito-like: Chromium refuses pushManager.subscribe; the device is one on the loopback service.
  const device = service.subscribe();
  assert.equal((await api(page, 'POST', '/api/me/devices', { subscription: { endpoint: device.endpoint, expirationTime: null, keys: device.keys }, label: 'Chrome on Linux' })).status, 201);

  const made = await api(page, 'POST', '/api/games', { seats: [{ kind: 'person' }, { kind: 'bot', level: 'random' }], pace: { kind: 'turnBased', moveDays: 2 } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  assert.equal((await api(page, 'POST', `/api/games/${(made.body as { id: string }).id}/seats`, { name: 'Ada' })).status, 201);
  await page.goto(`${base}/#/`);
  await page.reload();
  assert.deepEqual(popups(), [], 'no popup before the push');

  const [push] = await service.waitFor(1, 30_000);
  console.log(`pushed to the loopback service, decrypted: ${push.text}`);
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: base, registrationId, data: push.text });
  await page.locator('#mine-title .waiting-badge').waitFor();

  let popup: string | undefined;
  let before: Buffer = Buffer.alloc(0);
  for (let tries = 0; tries < 100; tries++) {
    popup ??= popups()[0];
    if (popup) {
      const now = grabWindow(popup);
      if (now.equals(before)) break;
      before = now;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok(popup, 'Chromium showed its notification popup');
  execFileSync('import', ['-display', display, '-window', 'root', OUT]);
  console.log(`wrote ${join(OUT)}`);
} finally {
  await e2e.close();
  await service.close();
  xvfb.kill();
}
