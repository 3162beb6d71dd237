// The browser client's entry: a hash router over the lobby (#/), a game (#/g/<id>) and a replay
// (#/replay/<id>). Hash routes keep the server's static serving trivial: everything is index.html.

import { mountGallery } from './gallery.ts';
import { mountGame } from './game/screen.ts';
import { mountLobby } from './lobby.ts';
import { mountReplay } from './replay.ts';
import { mountRules } from './rules-page.ts';

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
  const game = hash.match(/^\/g\/([^/?#]+)/);
  const replay = hash.match(/^\/replay\/([^/?#]+)/);
  unmount?.();
  unmount = null;
  root.innerHTML = '';
  const tiles = hash.startsWith('/tiles');
  const rules = hash.startsWith('/rules');
  document.body.dataset.route = game ? 'game' : replay ? 'replay' : tiles ? 'tiles' : rules ? 'rules' : 'lobby';
  if (tiles) unmount = mountGallery(root);
  else if (rules) unmount = mountRules(root);
  else if (game) unmount = mountGame(root, decodeURIComponent(game[1]));
  else if (replay) unmount = mountReplay(root, decodeURIComponent(replay[1]), /[?&]analyse\b/.test(hash));
  else unmount = mountLobby(root);
  window.scrollTo(0, 0);
}

window.addEventListener('hashchange', route);
route();
