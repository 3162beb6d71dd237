// The board side of the screen: tiles, followers, each seat's last placement, where the tile
// fits, the tentative placement with its follower spots, the ghost under the pointer, scorings
// and picked log entries flashed on it, the zoom by hand, and the banner over the board
// (waiting for players, watching).

import { ICONS } from '../art.ts';
import type { BoardView, Highlight } from '../board.ts';
import { esc, gameLink, patch } from '../dom.ts';
import type { GameView, LastMove } from '../protocol.ts';
import { BoardIndex, featureCentre } from './features.ts';
import type { LogEntry } from './log-entries.ts';
import type { GameScreenState } from './state.ts';

export function renderBoard(board: BoardView, s: GameScreenState, hover: { x: number; y: number } | null): void {
  const v = s.view!;
  const sel = s.selection;
  // The "since you last looked" replay draws the board as it stood, then each tile as it lands.
  const tiles = s.hidden.size ? v.board.filter((t) => !s.hidden.has(`${t.x},${t.y}`)) : v.board;
  const followers = s.hidden.size ? v.followers.filter((f) => !s.hidden.has(`${f.x},${f.y}`)) : v.followers;
  board.setTiles(tiles, s.fresh);
  board.setFollowers(followers, tiles);
  const latest = [...s.lastBySeat.entries()].sort((a, b) => b[1].turn - a[1].turn);
  board.setMarks(latest.filter(([, m]) => v.board.some((t) => t.x === m.x && t.y === m.y)).map(([seat, m], i) => ({ x: m.x, y: m.y, player: seat, recent: i === 0 })));
  const cells: Highlight[] = s.canPlace()
    ? [...s.legal.entries()]
        .map(([k, rots]) => {
          const [x, y] = k.split(',').map(Number);
          return { x, y, fits: rots.has(s.rotation) };
        })
        .filter((c) => !sel || c.x !== sel.x || c.y !== sel.y)
    : [];
  board.setHighlights(cells);
  // The follower's whole feature: the spot under the mouse, else the one chosen.
  const spot = sel && !s.pending ? ((s.previewSpot && s.spots(sel).includes(s.previewSpot) ? s.previewSpot : null) ?? sel.meeple) : null;
  board.setFeature(spot && v.tile ? new BoardIndex([...v.board, { tile: v.tile, x: sel!.x, y: sel!.y, rotation: sel!.rotation }]).featureOfSpot(sel!.x, sel!.y, spot) : null, v.you);
  board.setTentative(
    sel && v.tile ? { tile: v.tile, x: sel.x, y: sel.y, rotation: sel.rotation, player: v.you ?? 0, spots: s.pending ? [] : s.spots(sel), meeple: sel.meeple, figure: sel.figure } : null,
  );
  renderGhost(board, s, hover);
  const hint = typeof s.hint === 'object' && s.hint?.turn === v.turn && v.tile ? s.hint.move : null;
  board.setSuggestion(hint && v.tile ? { tile: v.tile, ...hint, player: v.you ?? 0 } : null);
}

/** The tile under the pointer: solid where it fits as turned, dashed where another turn fits. */
export function renderGhost(board: BoardView, s: GameScreenState, hover: { x: number; y: number } | null): void {
  const v = s.view;
  const sel = s.selection;
  if (!v?.tile || !hover || !s.canPlace() || (sel && sel.x === hover.x && sel.y === hover.y) || v.board.some((t) => t.x === hover.x && t.y === hover.y)) {
    board.setGhost(null);
    return;
  }
  const { x, y } = hover;
  const r = s.rotationAt(x, y);
  const touches = v.board.some((t) => Math.abs(t.x - x) + Math.abs(t.y - y) === 1);
  board.setGhost(r === null && !touches ? null : { tile: v.tile, x, y, rotation: r ?? s.rotation, fits: r !== null });
}

/** A move's scorings on the board: each scored feature outlined, its points floating up. */
export function showScorings(board: BoardView, v: GameView, last: LastMove): void {
  new BoardIndex(v.board).scoredBy(last.move.x, last.move.y, last.events).forEach((f, i) => {
    const e = last.events[i];
    if (f) board.flashFeature(f, { player: e.players.length === 1 ? e.players[0] : null, points: e.points, at: featureCentre(f), ms: 3200 });
  });
}

/** A log entry picked: its tile flashes, a scoring's feature is outlined. */
export function showLogEntry(board: BoardView, v: GameView | null, e: LogEntry | undefined): void {
  if (!e?.at || !v) return;
  board.reveal(e.at.x, e.at.y);
  board.flashTile(e.at.x, e.at.y);
  if (e.feature) {
    const f = new BoardIndex(v.board).feature(e.feature.x, e.feature.y, e.feature.seg);
    if (f) board.flashFeature(f, { player: e.seat, ms: 2400, cls: 'log-outline' });
  }
}

/** A zoom by hand: the board keeps the player's view from then on (until fitted again). */
export function zoomBoard(board: BoardView, factor: number): void {
  board.manual = true;
  board.zoomAt(factor);
}

export function renderBanner(banner: HTMLElement, v: GameView, holdsSeat: boolean): void {
  if (v.status === 'waiting') {
    banner.hidden = false;
    const link = gameLink(v.gameId);
    patch(
      banner,
      `<p><strong>Waiting for players.</strong> Send this link to a friend:</p><div class="row"><input class="invite-input" readonly value="${esc(link)}" aria-label="Invite link" data-focus-key="invite-input"><button class="btn primary small" data-action="invite" data-focus-key="banner-invite">Copy</button></div>${!holdsSeat && hasOpenSeat(v) ? '<button class="btn small" data-action="join" data-focus-key="banner-join">Take a seat</button>' : ''}`,
    );
  } else if (v.you === null && v.status === 'playing') {
    banner.hidden = false;
    patch(banner, `<p>${ICONS.eye} Watching this game.</p>`);
  } else {
    banner.hidden = true;
  }
}

export function hasOpenSeat(v: GameView): boolean {
  return v.seats.some((s) => s.kind === 'person' && !s.name);
}
