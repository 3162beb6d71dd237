// The player's turn, from input to the move sent: choosing a cell (a miss says why), turning the
// tile, stepping through the cells where it fits, the follower spot, confirm, take back, and
// asking for the expert's move. It changes the GameScreenState and moves the board's view; the
// screen renders.

import type { BoardView } from '../board.ts';
import { clearToast, toast } from '../dom.ts';
import type { Move } from '../protocol.ts';
import { capitalize, tileWords } from '../text.ts';
import type { Figure, GameScreenState } from './state.ts';

/** Screen size of the tile being placed while its follower spots are offered. */
const SPOT_TILE_PX = 170;

/** What the turn sends; false when not connected. */
export interface TurnSender {
  sendMove(turn: number, move: Move): boolean;
  sendHint(turn: number): boolean;
}

export class Placing {
  private readonly state: GameScreenState;
  private readonly board: BoardView;
  private readonly sender: TurnSender;
  private readonly render: () => void;

  constructor(state: GameScreenState, board: BoardView, sender: TurnSender, render: () => void) {
    this.state = state;
    this.board = board;
    this.sender = sender;
    this.render = render;
  }

  /** A cell clicked: selected where the tile fits, turned when it is the selected one. */
  clickCell(x: number, y: number): void {
    const { state, board } = this;
    if (!state.canPlace()) return;
    const sel = state.selection;
    if (sel && sel.x === x && sel.y === y) return this.rotate(1);
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
    this.render();
    // The panel may have grown (the follower list), shrinking the board: keep the tile in view.
    requestAnimationFrame(() => board.reveal(x, y));
  }

  /** A spot tapped on the board: the follower goes there, or comes off when it was there. */
  toggleSpot(spot: string | null): void {
    if (!this.state.selection || this.state.pending) return;
    this.state.toggleSpot(spot);
    this.render();
  }

  /** A spot chosen from the list (or by its number key). */
  chooseSpot(spot: string | null): void {
    if (!this.state.selection) return;
    this.state.setSpot(spot);
    this.render();
  }

  /** The figure the spot choices are for (the large follower, the abbot; again: the follower). */
  chooseFigure(figure: Figure): void {
    if (!this.state.selection || this.state.pending) return;
    this.state.setFigure(figure);
    this.render();
  }

  /** Take the abbot back with this placement, or give that up. */
  toggleReturnAbbot(): void {
    if (!this.state.selection || this.state.pending) return;
    this.state.toggleReturnAbbot();
    this.render();
  }

  rotate(dir: 1 | -1): void {
    if (!this.state.view?.tile || this.state.pending) return;
    const refused = this.state.rotate(dir);
    if (refused) toast(refused);
    else this.render();
  }

  /** The next (or previous) cell where the tile fits. */
  cycle(dir: 1 | -1): void {
    const { state } = this;
    if (!state.canPlace() || !state.view?.legal?.length) return;
    const sel = state.cycle(dir);
    if (sel) this.board.reveal(sel.x, sel.y);
    this.render();
  }

  confirm(): void {
    const { state, board } = this;
    const { selection: sel, view } = state;
    if (!sel || !view || !state.canPlace()) return;
    const move: Move = {
      x: sel.x,
      y: sel.y,
      rotation: sel.rotation,
      meeple: sel.meeple,
      ...(sel.meeple !== null && sel.figure !== 'follower' ? { figure: sel.figure } : {}),
      ...(sel.returnAbbot && sel.meeple === null ? { returnAbbot: true as const } : {}),
    };
    if (!this.sender.sendMove(view.turn, move)) {
      toast('Not connected: the move will be possible once the connection is back.', 'error');
      return;
    }
    state.pending = true;
    state.fresh.clear();
    this.render();
    // After a zoom-in to place a follower, the whole board comes back (unless panned by hand).
    if (!board.manual) board.fit();
  }

  takeBack(): void {
    if (!this.state.selection || this.state.pending) return;
    this.state.selection = null;
    this.render();
  }

  /** Asks for the expert's move (games with hints, once a turn). */
  askHint(): void {
    const { state } = this;
    const v = state.view;
    if (!v?.hints || !state.myTurn() || state.hint) return;
    if (this.sender.sendHint(v.turn)) state.hint = 'asked';
    this.render();
  }
}
