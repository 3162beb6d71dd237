// How many games wait for the player's move, shown on every page: "(2) " before the tab's title
// and a badge on the lobby's "Your games". Asked of the server (GET /api/me/waiting) when a page
// opens, when the tab comes back into view, when the service worker says a push arrived, and
// every minute while the tab is visible. When the games waiting change, the pages listening
// (the lobby's "Your games") are told, so the list never disagrees with the badge.

import { titled } from '../push-fold.ts';
import { pushApi } from './notifications.ts';
import { currentPlayer, onSessionChange } from './session.ts';

const EVERY_MS = 60_000;

let count = 0;
/** The waiting games' ids as last read (null: not read yet). */
let waitingIds: string | null = null;
const listeners = new Set<() => void>();

/** Calls `listener` whenever the games waiting for the player change; returns the unsubscribe. */
export function onWaitingChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(): void {
  const title = titled(document.title, count);
  if (title !== document.title) document.title = title;
  const heading = document.getElementById('mine-title');
  if (!heading) return;
  let badge = heading.querySelector<HTMLElement>('.waiting-badge');
  if (count === 0) {
    badge?.remove();
    return;
  }
  if (!badge) {
    badge = document.createElement('span');
    badge.className = 'waiting-badge';
    heading.append(' ', badge);
  }
  badge.textContent = String(count);
  badge.title = count === 1 ? 'A game waits for your move' : `${count} games wait for your move`;
  badge.setAttribute('aria-label', badge.title);
}

async function refresh(): Promise<void> {
  let ids = waitingIds;
  if (!currentPlayer()) [count, ids] = [0, ''];
  else {
    const waiting = await pushApi.waiting().catch(() => null);
    if (waiting) [count, ids] = [waiting.count, waiting.games.join(' ')];
  }
  show();
  const changed = waitingIds !== null && ids !== waitingIds;
  waitingIds = ids;
  if (changed) for (const listener of listeners) listener();
}

/** Starts keeping the count; pages re-title themselves, so the count is put back after them. */
export function keepWaitingCount(): void {
  const titleNode = document.querySelector('title');
  if (titleNode) new MutationObserver(show).observe(titleNode, { childList: true, characterData: true, subtree: true });
  window.addEventListener('hashchange', () => void refresh());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void refresh();
  });
  navigator.serviceWorker?.addEventListener('message', (e: MessageEvent) => {
    if ((e.data as { type?: string } | null)?.type === 'tessera-push') void refresh();
  });
  setInterval(() => {
    if (document.visibilityState === 'visible') void refresh();
  }, EVERY_MS);
  onSessionChange(() => void refresh());
  void refresh();
}
