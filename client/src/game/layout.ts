// The game screen's page: the top bar, the board with its tools and banners, the side panel's
// sections, the overlay for dialogs and the live region; and the elements the panels draw in.

import { ICONS } from '../art.ts';
import { esc } from '../dom.ts';
import { soundButton } from '../sound.ts';

export interface ScreenParts {
  game: HTMLElement;
  boardHost: HTMLElement;
  turn: HTMLElement;
  tile: HTMLElement;
  players: HTMLElement;
  chat: HTMLElement;
  bag: HTMLElement;
  log: HTMLElement;
  conn: HTMLElement;
  banner: HTMLElement;
  finalBanner: HTMLElement;
  sinceBanner: HTMLElement;
  track: HTMLElement;
  overlay: HTMLElement;
  /** The one live region of the game (game/announce.ts). The turn box (its clock ticks) and the
   * log (rebuilt on reconnect) are not live regions: a screen reader would chatter. */
  announcer: HTMLElement;
  sheetToggle: HTMLElement;
  unread: HTMLElement;
}

/** Lays the screen out in `root` and returns its parts. */
export function layOut(root: HTMLElement, gameId: string): ScreenParts {
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
    <h1 class="sr-only">Tessera game ${esc(gameId)}</h1>
    <div class="board-host"></div>
    <div class="board-tools" role="toolbar" aria-label="Board view">
      <button class="btn icon" data-action="zoom-in" title="Zoom in (+)" aria-label="Zoom in">+</button>
      <button class="btn icon" data-action="zoom-out" title="Zoom out (−)" aria-label="Zoom out">−</button>
      <button class="btn icon" data-action="fit" title="Fit the board (F)" aria-label="Fit the board">⤢</button>
    </div>
    <div class="board-banner" hidden></div>
    <div class="final-banner" role="status" hidden></div>
    <div class="since-banner" role="status" aria-live="polite" hidden></div>
    <div class="score-track"></div>
  </main>
  <aside class="panel" aria-label="Game panel">
    <section class="turn-box" aria-label="Turn"></section>
    <section class="tile-box"></section>
    <section class="players-box" aria-label="Players"></section>
    <section class="chat-box"></section>
    <section class="bag-box" aria-label="Tiles left in the bag"></section>
    <section class="log-box"><h2>Game log</h2><ol class="log" tabindex="0" aria-label="Moves and scorings"></ol></section>
    <p class="keys-help">Keys: <kbd>R</kbd> rotate, <kbd>Shift</kbd>+<kbd>R</kbd> back, <kbd>N</kbd>/<kbd>P</kbd> next/previous spot on the board, <kbd>0</kbd>–<kbd>9</kbd> follower, <kbd>L</kbd>/<kbd>A</kbd> large follower/abbot instead, <kbd>B</kbd> abbot back, <kbd>Enter</kbd> confirm, <kbd>Esc</kbd> take back, arrows pan, <kbd>+</kbd>/<kbd>−</kbd> zoom, <kbd>F</kbd> fit.</p>
  </aside>
  <div class="overlay" hidden></div>
  <div class="sr-only" role="log" aria-live="polite" aria-relevant="additions" data-announce></div>
</div>`;
  const part = (selector: string) => root.querySelector<HTMLElement>(selector)!;
  return {
    game: part('.game'),
    boardHost: part('.board-host'),
    turn: part('.turn-box'),
    tile: part('.tile-box'),
    players: part('.players-box'),
    chat: part('.chat-box'),
    bag: part('.bag-box'),
    log: part('.log'),
    conn: part('.conn'),
    banner: part('.board-banner'),
    finalBanner: part('.final-banner'),
    sinceBanner: part('.since-banner'),
    track: part('.score-track'),
    overlay: part('.overlay'),
    announcer: part('[data-announce]'),
    sheetToggle: part('[data-action=sheet]'),
    unread: part('.sheet-unread'),
  };
}
