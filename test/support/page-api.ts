// What the browser tests (and scripts/notification-screenshot.ts) do from inside a page: call
// the server as the client does, and wait for the service worker.

import type { CDPSession, Page } from 'playwright-core';

/** A same-origin call from the page (its session cookie, its Origin), as the client makes them;
 * the body parsed, or null when there is none. */
export const pageApi = (page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> =>
  page.evaluate(
    async ([m, p, b]) => {
      const r = await fetch(p as string, { method: m as string, headers: b === undefined ? {} : { 'content-type': 'application/json' }, body: b === undefined ? undefined : JSON.stringify(b) });
      const text = await r.text();
      return { status: r.status, body: text ? JSON.parse(text) : null };
    },
    [method, path, body] as const,
  );

/** The service worker's registration id once it is activated, from the DevTools protocol. */
export function activatedWorker(cdp: CDPSession): Promise<string> {
  return new Promise((resolve) => {
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      const active = versions.find((v) => v.status === 'activated' && v.scriptURL.endsWith('/sw.js'));
      if (active) resolve(active.registrationId);
    });
    void cdp.send('ServiceWorker.enable');
  });
}
