// The small bar at the top of the lobby and the player pages: the leaderboard, and the player
// this browser plays as (its page: name, passkeys, sign in and out). It follows the session, and
// is empty on a server without players.

import { ICONS } from './art.ts';
import { esc } from './dom.ts';
import { type SessionState, onSessionChange, sessionState } from './session.ts';

function markup(s: SessionState): string {
  if (s.kind === 'unavailable') return '';
  const who =
    s.kind === 'player'
      ? `<a class="btn small ghost account-chip" href="#/me" title="Your player: name, passkeys, sign in on another device">${ICONS.person}<span class="account-name">${esc(s.player.name)}</span></a>`
      : '';
  return `<a class="btn small ghost" href="#/leaderboard">Leaderboard</a>${who}`;
}

/** Draws the bar in `host` and keeps it current; returns the unsubscribe. */
export function mountAccountBar(host: HTMLElement): () => void {
  const draw = (s: SessionState) => {
    host.innerHTML = markup(s);
  };
  draw(sessionState());
  return onSessionChange(draw);
}
