// The game screen: it lays out the page, keeps the connection (seated players reconnect with
// the token stored for this game; everyone else watches), turns input into placements, and
// renders the panels beside it from one GameScreenState.

import { HttpError, api, savedName, saveName, seats as heldSeats, type HeldSeat } from '../api.ts';
import { ensureTileDefs } from '../defs.ts';
import { ICONS } from '../art.ts';
import { BoardView } from '../board.ts';
import { clearToast, copyText, esc, gameLink, inputTarget, toast } from '../dom.ts';
import { hasOpenSeat, renderBanner, renderBoard, renderGhost } from './board-panel.ts';
import { endScreen, joinDialog, missingDialog } from './dialogs.ts';
import { renderBag } from './bag.ts';
import { BoardIndex, featureCentre } from './features.ts';
import { replayFinalScoring } from './final-replay.ts';
import { renderLog } from './log.ts';
import { renderScoreTrack } from './score-track.ts';
import { renderPlayers } from './players.ts';
import { GameScreenState } from './state.ts';
import { renderTray } from './tray.ts';
import { renderTurn, tickTurn } from './turn-panel.ts';
import { ChatPanel } from './chat.ts';
import { announce, announcement } from './announce.ts';
import { cuesFor, play, soundButton } from '../sound.ts';
import { GameSocket, type ConnState } from '../net.ts';
import { capitalize, tileWords } from '../text.ts';
import type { GameView, LastMove, Placement } from '../protocol.ts';

/** Screen size of the tile being placed while its follower spots are offered. */
const SPOT_TILE_PX = 170;

export function mountGame(root: HTMLElement, gameId: string): () => void {
  ensureTileDefs();
  root.innerHTML = `
<div class="game" data-game="${esc(gameId)}">
  <header class="topbar">
    <a class="brand" href="#/" title="Back to the lobby"><span class="brand-mark" aria-hidden="true"></span>Tessera</a>
    <span class="game-id" title="Game id">game <code>${esc(gameId)}</code></span>
    <button class="btn small ghost" data-action="invite" data-focus-key="invite" title="Copy the link to this game">${ICONS.link}<span class="btn-label">Invite link</span></button>
    ${soundButton()}
    <a class="btn small ghost" href="#/rules" target="_blank" rel="noopener" title="How to play, in a new tab">${ICONS.help}<span class="btn-label">Rules</span></a>
    <button class="btn small ghost sheet-toggle" data-action="sheet" aria-expanded="false" title="Players, tiles left, table talk and the log">${ICONS.sheet}<span class="btn-label">Players, tiles &amp; talk</span><span class="sheet-unread" hidden></span></button>
    <span class="conn" data-conn="connecting" role="status" aria-live="polite">connecting…</span>
  </header>
  <main class="board-wrap">
    <div class="board-host"></div>
    <div class="board-tools" role="toolbar" aria-label="Board view">
      <button class="btn icon" data-action="zoom-in" title="Zoom in (+)" aria-label="Zoom in">+</button>
      <button class="btn icon" data-action="zoom-out" title="Zoom out (−)" aria-label="Zoom out">−</button>
      <button class="btn icon" data-action="fit" title="Fit the board (F)" aria-label="Fit the board">⤢</button>
    </div>
    <div class="board-banner" hidden></div>
    <div class="final-banner" role="status" hidden></div>
    <div class="score-track"></div>
  </main>
  <aside class="panel" aria-label="Game panel">
    <section class="turn-box" aria-label="Turn"></section>
    <section class="tile-box"></section>
    <section class="players-box" aria-label="Players"></section>
    <section class="chat-box"></section>
    <section class="bag-box" aria-label="Tiles left in the bag"></section>
    <section class="log-box"><h2>Game log</h2><ol class="log" tabindex="0" aria-label="Moves and scorings"></ol></section>
    <p class="keys-help">Keys: <kbd>R</kbd> rotate, <kbd>Shift</kbd>+<kbd>R</kbd> back, <kbd>N</kbd>/<kbd>P</kbd> next/previous spot on the board, <kbd>0</kbd>–<kbd>9</kbd> follower, <kbd>Enter</kbd> confirm, <kbd>Esc</kbd> take back, arrows pan, <kbd>+</kbd>/<kbd>−</kbd> zoom, <kbd>F</kbd> fit.</p>
  </aside>
  <div class="overlay" hidden></div>
  <div class="sr-only" role="log" aria-live="polite" aria-relevant="additions" data-announce></div>
</div>`;

  const gameEl = root.querySelector<HTMLElement>('.game')!;
  const turnBox = root.querySelector<HTMLElement>('.turn-box')!;
  const tileBox = root.querySelector<HTMLElement>('.tile-box')!;
  const playersBox = root.querySelector<HTMLElement>('.players-box')!;
  const bagBox = root.querySelector<HTMLElement>('.bag-box')!;
  const logEl = root.querySelector<HTMLElement>('.log')!;
  const connEl = root.querySelector<HTMLElement>('.conn')!;
  const banner = root.querySelector<HTMLElement>('.board-banner')!;
  const overlay = root.querySelector<HTMLElement>('.overlay')!;
  const finalBanner = root.querySelector<HTMLElement>('.final-banner')!;
  const trackEl = root.querySelector<HTMLElement>('.score-track')!;
  /** Stops the final scorings' replay while it runs. */
  let finalReplay: (() => void) | null = null;
  // The one live region of the game (game/announce.ts). The turn box (its clock ticks) and the
  // log (rebuilt on reconnect) are not live regions: a screen reader would chatter.
  const announcer = root.querySelector<HTMLElement>('[data-announce]')!;
  /** The last move already heard (sound) and announced (live region): no repeats on resends. */
  let heardTurn = -1;
  const chatBox = root.querySelector<HTMLElement>('.chat-box')!;
  const chat = new ChatPanel(chatBox, gameId, {
    send: (content) => socket.sendChat(content),
    onHeard: () => {
      play('chat');
      // On a phone the talk is in the closed sheet: its toggle counts what came meanwhile.
      if (chatBox.offsetParent === null) showUnread(unread + 1);
    },
  });
  const unreadEl = root.querySelector<HTMLElement>('.sheet-unread')!;
  let unread = 0;

  function showUnread(n: number): void {
    unread = n;
    unreadEl.hidden = n === 0;
    unreadEl.innerHTML = n ? `<span aria-hidden="true">${n}</span><span class="sr-only"> (${n} new ${n === 1 ? 'message' : 'messages'})</span>` : '';
  }

  const state = new GameScreenState();
  let held: HeldSeat | null = heldSeats.get(gameId);
  let hover: { x: number; y: number } | null = null;
  let endDismissed = false;
  let joinDismissed = false;
  let destroyed = false;

  const board = new BoardView(root.querySelector<HTMLElement>('.board-host')!, {
    onCell: (x, y) => clickCell(x, y),
    onSpot: (spot) => chooseSpot(spot),
    onSpotHover: (spot) => {
      state.previewSpot = spot;
      render();
    },
    onHover: (c) => {
      hover = c;
      renderGhost(board, state, hover);
    },
  });

  // The score track lies over the board's bottom edge: fitting keeps the tiles above it.
  board.insetBottom = 46;

  let socket = connect();

  function connect(): GameSocket {
    return new GameSocket(gameId, held?.token, {
      onWelcome: (seat, moves, talk) => {
        state.history = moves;
        chat.setSeat(seat);
        chat.load(talk);
        heardTurn = moves.at(-1)?.turn ?? -1;
        if (held && seat === null) {
          heldSeats.forget(gameId);
          held = null;
        }
        gameEl.classList.toggle('spectating', seat === null);
      },
      onState: (v, last) => onState(v, last),
      onChat: (message) => chat.add(message),
      onError: (code, message) => {
        state.pending = false;
        if (state.hint === 'asked') state.hint = null;
        if (code === 'bad_token') {
          toast('This browser no longer holds a seat in this game: watching instead.', 'error', 6000);
          heldSeats.forget(gameId);
          held = null;
        } else if (code === 'unknown_game') {
          showOverlay(missingDialog(message));
        } else if (code !== 'stale_turn') {
          // stale_turn: the view moved on (a bot or a reconnect); the next state frame puts us right.
          toast(message, 'error', 5000);
        }
        render();
      },
      onConnState: (s, detail) => showConn(s, detail),
      onHint: (turn, move) => {
        if (state.view?.turn !== turn) return;
        state.hint = { turn, move };
        board.reveal(move.x, move.y);
        render();
      },
    });
  }

  function showConn(s: ConnState, detail?: string): void {
    connEl.dataset.conn = s;
    const suffix = detail ? ` (${detail})` : '';
    connEl.textContent =
      s === 'open'
        ? held
          ? `connected · seat ${held.seat + 1}`
          : 'connected · watching'
        : s === 'connecting'
          ? 'connecting…'
          : s === 'reconnecting'
            ? `reconnecting…${suffix}`
            : `closed${detail ? `: ${detail}` : ''}`;
    if (s === 'reconnecting') state.pending = false;
  }

  function showOverlay(html: string): void {
    overlay.hidden = false;
    overlay.innerHTML = html;
  }

  function hideOverlay(): void {
    overlay.hidden = true;
  }

  // ---- state frames ----

  function onState(v: GameView, last: LastMove | null): void {
    const prev = state.view;
    state.apply(v, last);
    // A toast belongs to the turn that raised it.
    if (prev && prev.turn !== v.turn) clearToast();
    if (state.arrived) showScorings(state.arrived);
    if (state.arrived && v.status === 'finished' && state.arrived.events.some((e) => e.phase === 'final'))
      finalReplay = replayFinalScoring(board, finalBanner, v, state.arrived, () => {
        finalReplay = null;
        if (!endDismissed && overlay.hidden) showEnd();
      });
    for (const cue of cuesFor(prev, v, last, heardTurn)) play(cue);
    const said = announcement(prev, v, last, heardTurn);
    if (said) announce(announcer, said);
    if (last) heardTurn = Math.max(heardTurn, last.turn);
    if (v.currentSeat !== null && v.currentSeat === v.you && prev && prev.currentSeat !== v.you) document.title = 'Your turn · Tessera';
    else if (v.currentSeat !== v.you) document.title = 'Tessera';
    render();
    if (v.status === 'finished' && !finalReplay && !endDismissed && (overlay.hidden || !overlay.querySelector('.end'))) showEnd();
    else if (v.status === 'waiting' && !held && !joinDismissed && overlay.hidden && hasOpenSeat(v)) showJoin();
    else if (v.status === 'playing' && overlay.querySelector('[data-form=join]')) hideOverlay();
  }

  /** A move's scorings on the board: each scored feature outlined, its points floating up. */
  function showScorings(last: LastMove): void {
    const index = new BoardIndex(state.view!.board);
    index.scoredBy(last.move.x, last.move.y, last.events).forEach((f, i) => {
      const e = last.events[i];
      if (f) board.flashFeature(f, { player: e.players.length === 1 ? e.players[0] : null, points: e.points, at: featureCentre(f), ms: 3200 });
    });
  }

  /** A log entry picked: its tile flashes, a scoring's feature is outlined. */
  function showLogEntry(i: number): void {
    const e = state.log[i];
    if (!e?.at || !state.view) return;
    board.reveal(e.at.x, e.at.y);
    board.flashTile(e.at.x, e.at.y);
    if (e.feature) {
      const f = new BoardIndex(state.view.board).feature(e.feature.x, e.feature.y, e.feature.seg);
      if (f) board.flashFeature(f, { player: e.seat, ms: 2400, cls: 'log-outline' });
    }
  }

  // ---- placing ----

  function clickCell(x: number, y: number): void {
    if (!state.canPlace()) return;
    const sel = state.selection;
    if (sel && sel.x === x && sel.y === y) return rotate(1);
    if (!state.select(x, y)) {
      const v = state.view;
      if (!v?.board.some((t) => t.x === x && t.y === y) && state.legal.size) toast(`${capitalize(tileWords(v?.tile, true))} cannot go there: its edges must match every neighbour.`);
      return;
    }
    // A "cannot go there" from a miss before is answered now (and on a phone it lies over the board).
    clearToast();
    // Follower spots want a tile big enough to tap them (about 44 px apart): zoom in if needed.
    if (state.spots().length) board.focusCell(x, y, SPOT_TILE_PX);
    else board.reveal(x, y);
    render();
    // The panel may have grown (the follower list), shrinking the board: keep the tile in view.
    requestAnimationFrame(() => board.reveal(x, y));
  }

  function chooseSpot(spot: string | null): void {
    if (!state.selection || state.pending) return;
    state.toggleSpot(spot);
    render();
  }

  function rotate(dir: 1 | -1): void {
    if (!state.view?.tile || state.pending) return;
    const refused = state.rotate(dir);
    if (refused) toast(refused);
    else render();
  }

  function cycleSpot(dir: 1 | -1): void {
    if (!state.canPlace() || !state.view?.legal?.length) return;
    const sel = state.cycle(dir);
    if (sel) board.reveal(sel.x, sel.y);
    render();
  }

  function confirm(): void {
    const { selection: sel, view } = state;
    if (!sel || !view || !state.canPlace()) return;
    if (!socket.sendMove(view.turn, { x: sel.x, y: sel.y, rotation: sel.rotation, meeple: sel.meeple })) {
      toast('Not connected: the move will be possible once the connection is back.', 'error');
      return;
    }
    state.pending = true;
    state.fresh.clear();
    render();
    // After a zoom-in to place a follower, the whole board comes back (unless panned by hand).
    if (!board.manual) board.fit();
  }

  function takeBack(): void {
    if (!state.selection || state.pending) return;
    state.selection = null;
    render();
  }

  // ---- rendering ----

  function render(): void {
    if (destroyed) return;
    const v = state.view;
    gameEl.classList.toggle('my-turn', state.myTurn());
    gameEl.dataset.status = v?.status ?? 'loading';
    gameEl.dataset.turn = String(v?.turn ?? -1);
    gameEl.classList.toggle('spectating', !!v && v.you === null);
    if (!v) return;
    renderBoard(board, state, hover);
    renderTurn(turnBox, state);
    renderTray(tileBox, state);
    renderPlayers(playersBox, v);
    renderScoreTrack(trackEl, v);
    renderBag(bagBox, v, state.discarded);
    renderLog(logEl, state.log, v);
    renderBanner(banner, v, held !== null);
  }

  const ticker = window.setInterval(() => tickTurn(turnBox, state), 250);

  // ---- dialogs ----

  function showJoin(): void {
    showOverlay(joinDialog(state.view!, savedName()));
    overlay.querySelector<HTMLInputElement>('input[name=name]')?.focus();
  }

  function showEnd(): void {
    showOverlay(endScreen(state.view!, held !== null));
    overlay.querySelector<HTMLElement>('.btn')?.focus();
  }

  async function join(name: string): Promise<void> {
    try {
      const r = await api.join(gameId, name);
      saveName(name);
      held = { gameId, seat: r.seat, token: r.token, name, at: Date.now() };
      heldSeats.put(held);
      hideOverlay();
      socket.close();
      socket = connect();
    } catch (e) {
      toast(e instanceof HttpError ? e.message : 'Could not join the game.', 'error', 5000);
    }
  }

  async function rematch(): Promise<void> {
    const v = state.view;
    if (!v || !held) return;
    try {
      const r = await api.rematch(v.gameId, held.token);
      heldSeats.put({ ...held, gameId: r.gameId, seat: r.seat, token: r.token, at: Date.now() });
      location.hash = `#/g/${encodeURIComponent(r.gameId)}`;
    } catch (e) {
      toast(e instanceof HttpError ? e.message : 'Could not start a rematch.', 'error', 5000);
    }
  }

  // ---- input ----

  const actions: Record<string, () => void> = {
    'zoom-in': () => {
      board.manual = true;
      board.zoomAt(1.25);
    },
    'zoom-out': () => {
      board.manual = true;
      board.zoomAt(0.8);
    },
    fit: () => board.fit(),
    'rot-cw': () => rotate(1),
    'rot-ccw': () => rotate(-1),
    confirm,
    takeback: takeBack,
    hint: () => {
      const v = state.view;
      if (!v?.hints || !state.myTurn() || state.hint) return;
      if (socket.sendHint(v.turn)) state.hint = 'asked';
      render();
    },
    claim: () => {
      if (!socket.sendClaim()) toast('Not connected: try again once the connection is back.', 'error');
    },
    invite: () => void copyText(gameLink(gameId)).then((ok) => toast(ok ? 'Invite link copied.' : gameLink(gameId))),
    'skip-final': () => {
      finalReplay?.();
      finalReplay = null;
      if (!endDismissed) showEnd();
    },
    'show-end': () => {
      endDismissed = false;
      showEnd();
    },
    'close-overlay': () => {
      endDismissed = true;
      hideOverlay();
    },
    rematch: () => void rematch(),
    sheet: () => {
      const open = gameEl.classList.toggle('sheet-open');
      root.querySelector('[data-action=sheet]')?.setAttribute('aria-expanded', String(open));
      if (open) showUnread(0);
    },
    join: () => {
      joinDismissed = false;
      showJoin();
    },
    watch: () => {
      joinDismissed = true;
      hideOverlay();
    },
  };
  const onClick = (e: MouseEvent) => {
    const entry = (e.target as HTMLElement).closest<HTMLElement>('[data-log]');
    if (entry && gameEl.contains(entry)) showLogEntry(Number(entry.dataset.log));
    const t = (e.target as HTMLElement).closest<HTMLElement>('[data-action]');
    if (t && gameEl.contains(t)) actions[t.dataset.action ?? '']?.();
  };
  const onChange = (e: Event) => {
    const t = e.target as HTMLInputElement;
    if (t.dataset.spotChoice === undefined || !state.selection) return;
    state.setSpot(t.dataset.spotChoice || null);
    render();
  };
  const onSubmit = (e: SubmitEvent) => {
    const f = e.target as HTMLFormElement;
    if (f.dataset.form !== 'join') return;
    e.preventDefault();
    const name = String(new FormData(f).get('name') ?? '').trim();
    if (name) void join(name);
  };
  const onKey = (e: KeyboardEvent) => {
    if (inputTarget(e) && e.key !== 'Enter' && e.key !== 'Escape') return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (!overlay.hidden) {
      if (e.key === 'Escape' && state.view?.status === 'finished') actions['close-overlay']();
      return;
    }
    const k = e.key;
    const sel = state.selection;
    const entry = (e.target as HTMLElement).closest?.<HTMLElement>('[data-log]');
    if (entry && (k === 'Enter' || k === ' ')) {
      e.preventDefault();
      showLogEntry(Number(entry.dataset.log));
      return;
    }
    if (k === 'r' || k === 'R') {
      e.preventDefault();
      rotate(e.shiftKey ? -1 : 1);
    } else if (k === 'Enter' && sel) {
      if ((e.target as HTMLElement).closest?.('button, a')) return;
      e.preventDefault();
      confirm();
    } else if (k === 'Escape' || (k === 'Backspace' && sel)) {
      e.preventDefault();
      takeBack();
    } else if (k === 'n' || k === 'N' || k === 'p' || k === 'P') {
      e.preventDefault();
      cycleSpot(k === 'n' || k === 'N' ? 1 : -1);
    } else if (/^[0-9]$/.test(k) && sel) {
      const spot = k === '0' ? null : state.spots()[Number(k) - 1];
      if (spot === null) chooseSpot(null);
      else if (spot !== undefined) {
        state.setSpot(spot);
        render();
      }
    } else if ((k === 'f' || k === 'F' || k === '+' || k === '=' || k === '-') && document.activeElement !== board.svg) {
      if (k === 'f' || k === 'F') board.fit();
      else {
        board.manual = true;
        board.zoomAt(k === '-' ? 0.8 : 1.25);
      }
    }
  };
  root.addEventListener('click', onClick);
  root.addEventListener('change', onChange);
  root.addEventListener('submit', onSubmit);
  document.addEventListener('keydown', onKey);

  // Test and debugging handle: the e2e tests read cell positions from it.
  (window as unknown as { tessera?: unknown }).tessera = {
    board,
    get view() {
      return state.view;
    },
    get selection() {
      return state.selection;
    },
    dropConnection: () => socket.simulateDrop(),
    legal: (): Placement[] => state.view?.legal ?? [],
  };

  return () => {
    destroyed = true;
    finalReplay?.();
    clearInterval(ticker);
    socket.close();
    board.destroy();
    root.removeEventListener('click', onClick);
    root.removeEventListener('change', onChange);
    root.removeEventListener('submit', onSubmit);
    document.removeEventListener('keydown', onKey);
    document.title = 'Tessera';
  };
}
