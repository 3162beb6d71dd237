// The server's VAPID key pair: made at first start and kept in the database (push/store.ts), so
// every instance of a cluster signs with the keys the browsers subscribed with, and a restored
// backup keeps them (docs/OPERATIONS.md).

import webpush from 'web-push';
import type { PushStore, VapidKeys } from './store.ts';

/** The stored pair, or a new one stored now (the first instance to store one wins). */
export async function vapidKeysOf(store: PushStore, now = new Date()): Promise<VapidKeys> {
  const made = webpush.generateVAPIDKeys();
  return store.vapidKeys({ publicKey: made.publicKey, privateKey: made.privateKey, createdAt: now.toISOString() });
}

/** Who runs this server, for the push services (RFC 8292 `sub`): an https origin or a mailto. */
export function vapidSubject(publicOrigin: string | null | undefined): string {
  return publicOrigin?.startsWith('https://') ? publicOrigin : 'mailto:push@tessera.invalid';
}
