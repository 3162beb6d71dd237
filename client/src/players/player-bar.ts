// The small bar at the top of the lobby and the player pages: the leaderboard, "Sign in" for a
// guest (one passkey prompt: the way onto a new device), and the player this browser plays as
// (its page: name, passkeys, sign out). It follows the session, and is empty on a server without
// players.

import { ICONS } from '../art.ts';
import { esc, toast } from '../dom.ts';
import { passkeyProblem, passkeysWork, signInWithPasskey } from './passkeys.ts';
import { type SessionState, onSessionChange, sessionState } from './session.ts';

function markup(s: SessionState): string {
  if (s.kind !== 'player' && s.kind !== 'none') return '';
  const player = s.kind === 'player' ? s.player : null;
  const signIn = (player?.passkeys ?? 0) === 0 && passkeysWork();
  const leaderboard = `<a class="btn small ghost" href="#/leaderboard">${ICONS.trophy}<span class="btn-label">Leaderboard</span></a>`;
  const button = signIn ? '<button class="btn small ghost" data-action="bar-sign-in" title="Played on another device? Sign in with its passkey">Sign in</button>' : '';
  const chip = `<a class="btn small ghost player-chip" href="#/me" title="Your player: name, passkeys, sign in on another device">${ICONS.person}<span class="player-name">${player ? esc(player.name) : 'Your player'}</span></a>`;
  return leaderboard + button + chip;
}

/** Draws the bar in `host` and keeps it current; returns the unsubscribe. */
export function mountPlayerBar(host: HTMLElement): () => void {
  const draw = (s: SessionState) => {
    host.innerHTML = markup(s);
  };
  const onClick = async (e: MouseEvent) => {
    if (!(e.target as HTMLElement).closest('[data-action=bar-sign-in]')) return;
    try {
      const s = await signInWithPasskey();
      if (s.kind === 'player') toast(`Signed in: you play as ${s.player.name}.`);
    } catch (err) {
      toast(passkeyProblem(err), 'error', 7000);
    }
  };
  host.addEventListener('click', onClick);
  draw(sessionState());
  const unlisten = onSessionChange(draw);
  return () => {
    unlisten();
    host.removeEventListener('click', onClick);
  };
}
