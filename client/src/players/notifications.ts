// Turn notifications on this device (issue U): the browser's Push API behind the player's
// opt-in, the server's VAPID key to subscribe with, and the player's devices. The service worker
// (sw.ts, at /sw.js) shows what the server pushes.

import { call, HttpError } from '../api.ts';
import type { Device, Devices, PushKey, Waiting } from '../protocol.ts';
import { deviceLabel } from '../push-fold.ts';

export const pushApi = {
  key: async () => (await call<PushKey>('GET', '/api/push/key')).publicKey,
  devices: async () => (await call<Devices>('GET', '/api/me/devices')).devices,
  addDevice: (subscription: PushSubscriptionJSON, label: string) => call<Device>('POST', '/api/me/devices', { subscription, label }),
  removeDevice: (id: string) => call<null>('DELETE', `/api/me/devices/${encodeURIComponent(id)}`),
  waiting: () => call<Waiting>('GET', '/api/me/waiting'),
};

/** Whether this browser can be notified at all (a secure page with service workers and push). */
export function pushWorks(): boolean {
  return window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The site-wide service worker, registered once. */
export function serviceWorker(): Promise<ServiceWorkerRegistration> {
  return navigator.serviceWorker.register('/sw.js', { scope: '/' });
}

/** Asks for permission, subscribes with the server's key and stores the device; the reason when
 * it cannot. */
export async function notifyHere(): Promise<Device> {
  if (!pushWorks()) throw new Error('This browser cannot show notifications from a site (or the page is not served over https).');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error('Notifications are blocked for this site: allow them in the browser’s site settings.');
  const registration = await serviceWorker();
  await navigator.serviceWorker.ready;
  const key = await pushApi.key();
  const subscription = (await registration.pushManager.getSubscription()) ?? (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }));
  const device = await pushApi.addDevice(subscription.toJSON(), deviceLabel(navigator.userAgent));
  localStorage.setItem(HERE, device.id);
  return device;
}

const HERE = 'tessera.pushDevice';

/** The device this browser stored when it subscribed, if any ("this device" in the list). */
export function deviceHere(): string | null {
  return localStorage.getItem(HERE);
}

/** Stops this browser's notifications: its device removed, its subscription ended. */
export async function removeDevice(id: string): Promise<void> {
  await pushApi.removeDevice(id);
  if (id !== deviceHere()) return;
  localStorage.removeItem(HERE);
  const registration = pushWorks() ? await navigator.serviceWorker.getRegistration('/') : undefined;
  await (await registration?.pushManager.getSubscription())?.unsubscribe();
}

/** What a failed opt-in or removal says to the player. */
export function pushProblem(e: unknown): string {
  if (e instanceof HttpError && e.status === 429) return 'Too many tries: wait a minute and try again.';
  if (e instanceof HttpError) return e.message;
  // The push service refused (no network to it, or a private window, which cannot be notified).
  if (e instanceof Error && (e.name === 'AbortError' || e.name === 'NotAllowedError' || e.name === 'NotSupportedError'))
    return 'This browser’s push service refused to subscribe (a private window cannot be notified): nothing changed.';
  if (e instanceof Error && e.message) return e.message;
  return 'Could not reach the server: nothing changed.';
}
