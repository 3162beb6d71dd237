// What the game screen knows, without the DOM: the latest view, the placement being chosen
// (cell, rotation, follower), the log, and the turn's timers. The panels render from it.

import type { GameView, LastMove, Move, SeatView } from '../protocol.ts';
import { BoardIndex } from './features.ts';
import { type LogEntry, logEntries } from './log-entries.ts';

/** The figures a player places: the follower, and with the expansions the large follower and the abbot. */
export type Figure = 'follower' | 'large' | 'abbot';
export const FIGURES: readonly Figure[] = ['follower', 'large', 'abbot'];

export interface Selection {
  x: number;
  y: number;
  rotation: number;
  /** The figure the spot choices are for (and that goes on `meeple`). */
  figure: Figure;
  meeple: string | null;
  /** The Abbot: take the abbot back instead of placing a figure (`meeple` stays null). */
  returnAbbot: boolean;
}

/** A placement's open spots by figure, and whether it may come with taking the abbot back. */
type SpotsByFigure = Record<Figure, string[]> & { returnAbbot: boolean };

const ROTATIONS = [0, 90, 180, 270];
const LOG_LIMIT = 300;

export class GameScreenState {
  view: GameView | null = null;
  /** The tentative placement, before confirm. */
  selection: Selection | null = null;
  /** The rotation shown in the tray (and at the pointer) while nothing is selected. */
  rotation = 0;
  /** The follower spot under the mouse: its feature is shown before it is chosen. */
  previewSpot: string | null = null;
  /** A move was sent and its answer has not come yet. */
  pending = false;
  /** Legal placements of the current tile: "x,y" → rotation → the spots open to each figure. */
  legal = new Map<string, Map<number, SpotsByFigure>>();
  readonly log: LogEntry[] = [];
  /** Each seat's latest placement, marked on the board. */
  readonly lastBySeat = new Map<number, { x: number; y: number; turn: number }>();
  lastBot: { name: string; ms: number; source: string } | null = null;
  turnStarted = performance.now();
  botSince: number | null = null;
  /** The expert's move for the current turn, once asked for (games with hints). */
  hint: { turn: number; move: Move } | 'asked' | null = null;
  /** The moves so far from the welcome; the log catches up from them on the next state frame. */
  history: LastMove[] | null = null;
  /** Tiles placed by others since this player last acted ("x,y"): highlighted on the board. */
  readonly fresh = new Set<string>();
  /** Tiles not drawn yet ("x,y"): the moves still to land in the "since you last looked" replay. */
  hidden: ReadonlySet<string> = new Set();
  /** Tiles drawn that fit nowhere, by type letter (they leave the bag too). */
  readonly discarded: string[] = [];
  /** The moves that arrived with the latest frame (live, not from the welcome's history). */
  arrived: LastMove | null = null;
  private readonly seenTurns = new Set<number>();
  private turnKey = '';
  private finishedLogged = false;

  /** Takes a state frame in. */
  apply(v: GameView, last: LastMove | null): void {
    const prev = this.view;
    this.view = v;
    if (prev && prev.turn !== v.turn) {
      this.selection = null;
      this.pending = false;
      this.hint = null;
    }
    if (v.legal === null) this.selection = null;
    this.legal = new Map();
    for (const p of v.legal ?? []) {
      const key = `${p.x},${p.y}`;
      if (!this.legal.has(key)) this.legal.set(key, new Map());
      this.legal.get(key)!.set(p.rotation, { follower: p.meeples, large: p.large ?? [], abbot: p.abbot ?? [], returnAbbot: p.canReturnAbbot === true });
    }
    // The clock restarts when the seat to move or the turn changes.
    const key = `${v.turn}:${v.currentSeat}`;
    if (key !== this.turnKey) {
      this.turnKey = key;
      this.turnStarted = performance.now();
    }
    if (v.botThinking && this.botSince === null) this.botSince = performance.now();
    if (!v.botThinking) this.botSince = null;
    // Moves missed while away (or before a refresh) come after every move already logged, and
    // addMove skips turns it has seen, so what was logged live (bot times included) stays.
    const index = new BoardIndex(v.board);
    for (const h of this.history ?? []) this.addMove(h, v.seats, index);
    this.history = null;
    this.arrived = last && !this.seenTurns.has(last.turn) ? last : null;
    if (last) this.addMove(last, v.seats, index);
    if (this.arrived) {
      const key = `${last!.move.x},${last!.move.y}`;
      if (v.you === null) this.fresh.clear();
      if (last!.seat === v.you) this.fresh.clear();
      else this.fresh.add(key);
    }
    if (v.status === 'finished' && !this.finishedLogged) {
      this.finishedLogged = true;
      if (prev && prev.status !== 'finished')
        this.addInfo(v.abandoned ? 'The game was abandoned (nobody played it any more): followers scored as they stood.' : 'The game is over: final scoring done.', 'final');
    }
  }

  addInfo(text: string, kind: LogEntry['kind'] = 'info'): void {
    this.log.unshift({ turn: this.view?.turn ?? 0, seat: null, text, detail: [], kind });
  }

  private addMove(last: LastMove, seats: SeatView[], index: BoardIndex): void {
    if (this.seenTurns.has(last.turn)) return;
    this.seenTurns.add(last.turn);
    this.discarded.push(...last.discarded);
    this.lastBySeat.set(last.seat, { x: last.move.x, y: last.move.y, turn: last.turn });
    const { entries, bot } = logEntries(last, seats, index);
    if (bot) this.lastBot = bot;
    this.log.unshift(...entries.reverse());
    if (this.log.length > LOG_LIMIT) this.log.length = LOG_LIMIT;
  }

  myTurn(): boolean {
    const v = this.view;
    return !!v && v.status === 'playing' && v.you !== null && v.currentSeat === v.you && !!v.legal;
  }

  /** May the player act on the placement now (their turn, nothing in flight)? */
  canPlace(): boolean {
    return this.myTurn() && !this.pending;
  }

  legalRotations(x: number, y: number): number[] {
    const m = this.legal.get(`${x},${y}`);
    return m ? ROTATIONS.filter((r) => m.has(r)) : [];
  }

  /** The rotation to show at a cell: the chosen one if it fits, else the next that does. */
  rotationAt(x: number, y: number, from = this.rotation, dir = 1): number | null {
    const rs = this.legalRotations(x, y);
    if (!rs.length) return null;
    for (let i = 0; i < 4; i++) {
      const r = (((from + dir * i * 90) % 360) + 360) % 360;
      if (rs.includes(r)) return r;
    }
    return rs[0];
  }

  /** Spots open to the selection's figure. */
  spots(s: Selection | null = this.selection): string[] {
    return this.openAt(s)?.[s!.figure] ?? [];
  }

  /** What the selection's placement offers, or undefined. */
  private openAt(s: Selection | null): SpotsByFigure | undefined {
    return s ? this.legal.get(`${s.x},${s.y}`)?.get(s.rotation) : undefined;
  }

  /** The figures with a spot open at the selection (the follower always listed: "none" is its choice). */
  figures(s: Selection | null = this.selection): Figure[] {
    const open = this.openAt(s);
    return FIGURES.filter((f) => f === 'follower' || (open?.[f].length ?? 0) > 0);
  }

  /** Switches the figure the spots are for; its spot goes when the new figure cannot stand there.
   * Asking for the figure already chosen goes back to the follower. */
  setFigure(figure: Figure): void {
    const s = this.selection;
    if (!s || !this.figures().includes(figure)) return;
    s.figure = s.figure === figure ? 'follower' : figure;
    if (s.meeple !== null && !this.spots().includes(s.meeple)) s.meeple = null;
  }

  /** Selects a cell at the rotation that fits there; false when nothing fits. */
  select(x: number, y: number): boolean {
    const r = this.rotationAt(x, y);
    if (r === null) return false;
    this.fresh.clear();
    this.rotation = r;
    this.selection = { x, y, rotation: r, figure: 'follower', meeple: null, returnAbbot: false };
    return true;
  }

  /** Turns the tile; with a selection, to the next rotation that fits there. Returns why not, or null. */
  rotate(dir: 1 | -1): string | null {
    const s = this.selection;
    if (!s) {
      this.rotation = (this.rotation + dir * 90 + 360) % 360;
      return null;
    }
    const rs = this.legalRotations(s.x, s.y);
    if (rs.length <= 1) return rs.length ? 'Only this rotation fits here.' : 'Nothing fits here.';
    const next = this.rotationAt(s.x, s.y, (s.rotation + dir * 90 + 360) % 360, dir);
    if (next !== null) {
      this.selection = { ...s, rotation: next, figure: 'follower', meeple: null, returnAbbot: false };
      this.rotation = next;
    }
    return null;
  }

  /** Selects the next (or previous) cell where the tile fits, in reading order. */
  cycle(dir: 1 | -1): Selection | null {
    const cells = [...this.legal.keys()].map((k) => k.split(',').map(Number) as [number, number]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    if (!cells.length) return null;
    const s = this.selection;
    const at = s ? cells.findIndex(([x, y]) => x === s.x && y === s.y) : -1;
    const [x, y] = cells[(at + dir + cells.length) % cells.length];
    this.select(x, y);
    return this.selection;
  }

  /** Puts the follower on `spot`, or takes it off when it is there already (or `spot` is null). */
  toggleSpot(spot: string | null): void {
    if (this.selection) this.setSpot(this.selection.meeple === spot ? null : spot);
  }

  /** A figure on `spot` (null: none); placing one gives up taking the abbot back. */
  setSpot(spot: string | null): void {
    if (!this.selection) return;
    this.selection.meeple = spot;
    if (spot !== null) this.selection.returnAbbot = false;
  }

  /** May the selection come with taking the abbot back? */
  mayReturnAbbot(s: Selection | null = this.selection): boolean {
    return this.openAt(s)?.returnAbbot === true;
  }

  /** Takes the abbot back with this placement (no figure then), or gives that up. */
  toggleReturnAbbot(): void {
    const s = this.selection;
    if (!s || !this.mayReturnAbbot()) return;
    s.returnAbbot = !s.returnAbbot;
    if (s.returnAbbot) s.meeple = null;
  }
}
