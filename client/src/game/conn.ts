// The connection line in the top bar: connecting, connected (to which seat, or watching),
// reconnecting with the reason, closed.

import type { ConnState } from '../net.ts';

export function renderConn(el: HTMLElement, s: ConnState, detail: string | undefined, seat: number | null): void {
  el.dataset.conn = s;
  el.textContent =
    s === 'open'
      ? seat !== null
        ? `connected · seat ${seat + 1}`
        : 'connected · watching'
      : s === 'connecting'
        ? 'connecting…'
        : s === 'reconnecting'
          ? `reconnecting…${detail ? ` (${detail})` : ''}`
          : `closed${detail ? `: ${detail}` : ''}`;
}
