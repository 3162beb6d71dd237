// What one seat may see of a game: the board, scores, the tile being placed, and, for the seat
// that must place it, the legal placements. Never the bag order.

import { boardTiles, followersOnBoard, legalPlacements, pointsByKind, tileName } from '../../bot-engine/game.ts';
import type { Rules } from '../../bot-engine/rules.ts';
import type { GameState } from '../../bot-engine/state.ts';
import type { BotLevel } from '../../bot-engine/bots/levels.ts';
import type { ClockView, GameStatus, GameView, LastMove, SeatKind, StandInReason } from '../wire/game.ts';

export interface SeatInfo {
  name: string | null;
  kind: SeatKind;
  level?: BotLevel;
  connected: boolean;
  standIn: StandInReason | null;
}

export interface ViewInput {
  gameId: string;
  status: GameStatus;
  rules: Rules;
  turn: number;
  state: GameState;
  seats: SeatInfo[];
  botThinking: boolean;
  clock: ClockView;
  rematch: string | null;
  abandoned: boolean;
  hintsOn: boolean;
  /** Hints used per seat. */
  hints: readonly number[];
}

export function seatView(input: ViewInput, you: number | null): GameView {
  const { state } = input;
  const playing = input.status === 'playing';
  const current = playing ? state.currentPlayer : null;
  const myTurn = you !== null && you === current && input.seats[you].kind === 'person';
  return {
    gameId: input.gameId,
    status: input.status,
    rules: input.rules,
    turn: input.turn,
    you,
    seats: input.seats.map((seat, p) => ({
      seat: p,
      ...seat,
      score: state.score(p),
      followers: state.followers(p),
      points: pointsByKind(state, p),
      ...(input.hintsOn ? { hints: input.hints[p] ?? 0 } : {}),
    })),
    currentSeat: current,
    tile: state.currentTile >= 0 && !state.finished ? tileName(state.currentTile) : null,
    tilesLeft: state.finished ? 0 : state.tilesLeft,
    board: boardTiles(state),
    followers: followersOnBoard(state),
    legal: myTurn ? legalPlacements(state) : null,
    botThinking: input.botThinking,
    clock: input.clock,
    rematch: input.rematch,
    abandoned: input.abandoned,
    hints: input.hintsOn,
  };
}

/** The `state` frame (docs/PROTOCOL.md) as sent: serialised once per distinct view, whatever
 * the number of connections that show it. */
export function stateFrame(view: GameView, last: LastMove | null): string {
  return JSON.stringify({ type: 'state', view, last });
}
