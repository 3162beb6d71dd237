// The browser client's entry: a hash router over the lobby (#/), a game (#/g/<id>), a replay
// (#/replay/<id>), the player pages (#/me, #/leaderboard, #/players/<id>), the tiles and the
// rules. Hash routes keep the server's static serving trivial: everything is index.html.

import { mountMePage } from './players/me-page.ts';
import { mountGallery } from './gallery.ts';
import { mountGame } from './game/screen.ts';
import { mountLeaderboard } from './players/leaderboard.ts';
import { mountLobby } from './lobby.ts';
import { mountProfile } from './players/profile-page.ts';
import { mountReplay } from './replay.ts';
import { mountRules } from './rules-page.ts';
import { startSession } from './players/session.ts';
import { keepWaitingCount } from './players/waiting-count.ts';

const root = document.getElementById('app')!;
let unmount: (() => void) | null = null;

function route(): void {
  // Links of the form /?game=<id> (or /g/<id> served as index.html) become hash routes.
  const q = new URLSearchParams(location.search).get('game');
  const pathGame = location.pathname.match(/^\/g\/([^/]+)/)?.[1];
  if ((q || pathGame) && !location.hash) {
    history.replaceState(null, '', `/#/g/${q ?? pathGame}`);
  }
  const hash = location.hash.replace(/^#/, '');
  unmount?.();
  unmount = null;
  root.innerHTML = '';
  const page = pageOf(hash);
  document.body.dataset.route = page.name;
  unmount = page.mount(root);
  window.scrollTo(0, 0);
}

/** The page a hash route shows: its name (body's data-route, for the CSS) and how to mount it. */
function pageOf(hash: string): { name: string; mount: (root: HTMLElement) => () => void } {
  const arg = (pattern: RegExp) => {
    const m = hash.match(pattern);
    return m ? decodeURIComponent(m[1]) : null;
  };
  const game = arg(/^\/g\/([^/?#]+)/);
  const replay = arg(/^\/replay\/([^/?#]+)/);
  const player = arg(/^\/players\/([^/?#]+)/);
  if (game) return { name: 'game', mount: (r) => mountGame(r, game) };
  if (replay) return { name: 'replay', mount: (r) => mountReplay(r, replay, /[?&]analyse\b/.test(hash)) };
  if (player) return { name: 'player', mount: (r) => mountProfile(r, player) };
  if (hash.startsWith('/tiles')) return { name: 'tiles', mount: mountGallery };
  if (hash.startsWith('/rules')) return { name: 'rules', mount: mountRules };
  if (hash.startsWith('/me')) return { name: 'me', mount: mountMePage };
  if (hash.startsWith('/leaderboard')) return { name: 'leaderboard', mount: mountLeaderboard };
  return { name: 'lobby', mount: mountLobby };
}

// The session is asked for once, whichever page opens first; a player is made only when one is
// needed (session.ts).
void startSession();
window.addEventListener('hashchange', route);
route();
// After the router's listener: the badge goes on the page just drawn.
keepWaitingCount();
