// What one seat may see of a game: the board, scores, the tile being placed, and, for the seat
// that must place it, the legal placements. Never the bag order.

import { boardTiles, followersOnBoard, legalPlacements, pointsByKind, tileName } from '../../bot-engine/game.ts';
import type { Rules } from '../../bot-engine/rules.ts';
import type { GameState } from '../../bot-engine/state.ts';
import type { BotLevel } from '../../bot-engine/bots/levels.ts';
import type { ClockView, GameStatus, GameView, LastMove, SeatKind, StandInReason } from '../wire/game.ts';
import type { DeltaView } from '../wire/frames.ts';
import type { FinishedPlayer } from '../wire/api.ts';
import type { GameSetup, SeatHolder } from './store.ts';

export interface SeatInfo {
  name: string | null;
  kind: SeatKind;
  level?: BotLevel;
  connected: boolean;
  standIn: StandInReason | null;
  /** The rated or signed-in player holding the seat (a link to their profile and rating). */
  playerId?: string;
  /** A person holds the seat under a typed name, with no player behind it. */
  guest?: true;
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
  rated: boolean;
  /** Hints used per seat. */
  hints: readonly number[];
}

const withPlayerId = (playerId: string | undefined) => (playerId ? { playerId } : {});

/** A table as a view reads it: a live room's, or a stored game's replayed with no room. */
export interface TableShown {
  setup: GameSetup;
  state: GameState;
  status: GameStatus;
  /** Record entries so far: the turn a frame quotes. */
  turn: number;
  name(seat: number): string | null;
  playerId(seat: number): string | undefined;
  connected(seat: number): boolean;
  standIn(seat: number): StandInReason | null;
  botThinking: boolean;
  deadline: number | null;
  rematch: string | null;
  abandoned: boolean;
  /** Hints used per seat. */
  hints: readonly number[];
}

/** What every seat's view of `table` is built from (view.ts's seatView and ViewFrames). */
export function viewInputOf(table: TableShown): ViewInput {
  const { setup } = table;
  return {
    gameId: setup.id,
    status: table.status,
    rules: setup.rules,
    turn: table.turn,
    state: table.state,
    seats: setup.seats.map((s, i) => ({
      name: table.name(i),
      kind: s.kind,
      ...(s.level ? { level: s.level } : {}),
      connected: s.kind === 'bot' || table.connected(i),
      standIn: table.standIn(i),
      ...withPlayerId(table.playerId(i)),
      ...(s.kind === 'person' && table.name(i) !== null && !table.playerId(i) ? { guest: true as const } : {}),
      ...(s.player && table.name(i) === null ? { invited: s.player.name } : {}),
    })),
    botThinking: table.botThinking,
    clock: { ...(setup.pace ? { pace: { kind: setup.pace.kind, moveDays: setup.pace.moveDays } } : {}), turnSeconds: setup.clock.turnSeconds, deadline: table.deadline },
    rematch: table.rematch,
    abandoned: table.abandoned,
    hintsOn: setup.hints === true,
    rated: setup.rated === true,
    // Frames are built lazily: later hints must not leak into a broadcast already made.
    hints: table.hints.slice(),
  };
}

export function seatView(input: ViewInput, you: number | null): GameView {
  const view = viewWithoutBoard(input, you) as GameView;
  view.board = boardTiles(input.state);
  return view;
}

function viewWithoutBoard(input: ViewInput, you: number | null): DeltaView {
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
      ...(input.rules.innsCathedrals ? { large: state.largeFollowers(p) } : {}),
      ...(input.rules.abbot ? { abbots: state.abbots(p) } : {}),
      points: pointsByKind(state, p),
      ...(input.hintsOn ? { hints: input.hints[p] ?? 0 } : {}),
    })),
    currentSeat: current,
    tile: state.currentTile >= 0 && !state.finished ? tileName(state.currentTile) : null,
    tilesLeft: state.finished ? 0 : state.tilesLeft,
    followers: followersOnBoard(state),
    legal: myTurn ? legalPlacements(state) : null,
    botThinking: input.botThinking,
    clock: input.clock,
    rematch: input.rematch,
    abandoned: input.abandoned,
    hints: input.hintsOn,
    ...(input.rated ? { rated: true } : {}),
  };
}

/** One broadcast's frames of one seat's view: each built and serialised at most once, and only
 * if a connection needs it, whatever the number of connections that show it. */
export class ViewFrames {
  private view: DeltaView | null = null;
  private whole: string | null = null;
  private wholeSeq: string | null = null;
  private change: string | null = null;

  private readonly input: ViewInput;
  private readonly you: number | null;
  private readonly last: LastMove | null;
  private readonly seq: number;
  private readonly from: number;

  /** `seq`: the game's frame counter now; `from`: the tiles on the board at the previous broadcast. */
  constructor(input: ViewInput, you: number | null, last: LastMove | null, seq: number, from: number) {
    this.input = input;
    this.you = you;
    this.last = last;
    this.seq = seq;
    this.from = from;
  }

  private partial(): DeltaView {
    this.view ??= viewWithoutBoard(this.input, this.you);
    return this.view;
  }

  /** The `state` frame: the whole view (version 1 as it always was; with `seq` from version 2). */
  state(withSeq: boolean): string {
    if (withSeq) {
      this.wholeSeq ??= this.wholeFrame(this.seq);
      return this.wholeSeq;
    }
    this.whole ??= this.wholeFrame(undefined);
    return this.whole;
  }

  /** The `delta` frame (version 2 on): the view without its board, and the tiles placed since `from`. */
  delta(): string {
    this.change ??= JSON.stringify({ type: 'delta', seq: this.seq, view: this.partial(), from: this.from, placed: boardTiles(this.input.state, this.from), last: this.last });
    return this.change;
  }

  private wholeFrame(seq: number | undefined): string {
    const view = { ...this.partial(), board: boardTiles(this.input.state) };
    return JSON.stringify(seq === undefined ? { type: 'state', view, last: this.last } : { type: 'state', view, last: this.last, seq });
  }
}

/** A finished game's seats as listed (the finished list, a profile's recent games): who held each,
 * the signed-in player's id where one did (a link to their profile), and the final score. */
export function finishedPlayers(setup: Pick<GameSetup, 'seats'>, holders: readonly (SeatHolder | null)[], scores: readonly number[]): FinishedPlayer[] {
  return setup.seats.map((s, i) => {
    const holder = holders[i];
    return {
      seat: i,
      name: holder?.name ?? `open seat ${i + 1}`,
      kind: s.kind,
      ...(s.level ? { level: s.level } : {}),
      ...(holder?.playerId ? { playerId: holder.playerId } : {}),
      score: scores[i],
    };
  });
}
