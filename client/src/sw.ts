// The service worker (built to /sw.js, so its scope is the whole site): shows a push from the
// server (server/push/notifications.ts) as a notification (a turn, a reminder, a challenge),
// folding a player's turns into the one already shown (push-fold.ts), tells open pages to refresh
// their count, and opens the game (or the lobby's "Your games") on a click. Nothing is cached:
// the pages always come from the server.

import type { PushGame, PushMessage } from '../../server/wire/push.ts';
import { foldPush } from './push-fold.ts';

// The client compiles against the DOM's types; the worker's own few are named here.
interface Waitable extends Event {
  waitUntil(work: Promise<unknown>): void;
}
interface PushEvent extends Waitable {
  readonly data: { json(): unknown } | null;
}
interface ClickEvent extends Waitable {
  readonly notification: Notification;
}
interface PageClient {
  readonly url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
  postMessage(message: unknown): void;
}
interface WorkerScope {
  readonly registration: ServiceWorkerRegistration;
  readonly location: Location;
  readonly clients: { matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<PageClient[]>; openWindow(url: string): Promise<unknown>; claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (e: Waitable) => void): void;
  addEventListener(type: 'push', listener: (e: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (e: ClickEvent) => void): void;
}

const worker = globalThis as unknown as WorkerScope;

worker.addEventListener('install', (e) => e.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (e) => e.waitUntil(worker.clients.claim()));

worker.addEventListener('push', (e) => e.waitUntil(show(e.data?.json() as PushMessage | undefined)));

async function show(message: PushMessage | undefined): Promise<void> {
  if (!message || !Array.isArray(message.games)) return;
  const { registration } = worker;
  const before = message.kind === 'turn' ? await registration.getNotifications({ tag: 'tessera-turns' }) : [];
  const shownGames = before.flatMap((n) => ((n.data as { games?: PushGame[] } | null)?.games ?? []) as PushGame[]);
  const shown = foldPush(message, shownGames, Date.now());
  await registration.showNotification(shown.title, { body: shown.body, tag: shown.tag, data: { url: shown.url, games: shown.games }, icon: '/favicon.svg' });
  for (const page of await worker.clients.matchAll({ type: 'window', includeUncontrolled: true })) page.postMessage({ type: 'tessera-push', kind: message.kind });
}

worker.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const url = new URL((e.notification.data as { url?: string } | null)?.url ?? '/#/', worker.location.origin).href;
  e.waitUntil(openPage(url));
});

/** A page of this site already open is reused; else a new one. */
async function openPage(url: string): Promise<void> {
  const pages = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const page = pages.find((p) => new URL(p.url).origin === worker.location.origin);
  if (!page) {
    await worker.clients.openWindow(url);
    return;
  }
  await page.focus();
  await page.navigate(url);
}
