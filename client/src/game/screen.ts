// The game screen, a controller: it lays out the page (game/layout.ts), keeps the connection
// (net.ts; seated players reconnect with the token stored for this game, everyone else
// watches), feeds its frames into one GameScreenState, renders the panels from it, and routes
// what the person does to the turn (game/placing.ts), the dialogs (game/overlay.ts), the seat
// (game/seat.ts) and the board.

import { BoardView } from '../board.ts';
import { ensureTileDefs } from '../defs.ts';
import { clearToast, copyText, gameLink, toast } from '../dom.ts';
import { type ConnState, GameSocket } from '../net.ts';
import { fillRatings, loadRatingChanges, loadRatings, onRatings } from '../players/rating-book.ts';
import type { GameView, LastMove } from '../protocol.ts';
import { play } from '../sound.ts';
import { renderBag } from './bag.ts';
import { renderBanner, renderBoard, renderGhost, showLogEntry, showScorings, zoomBoard } from './board-panel.ts';
import { ChatPanel } from './chat.ts';
import { renderConn } from './conn.ts';
import { FinalScoringShow } from './final-replay.ts';
import { Herald } from './herald.ts';
import { bindInput } from './input.ts';
import { layOut } from './layout.ts';
import { renderLog } from './log.ts';
import { Overlay } from './overlay.ts';
import { Placing } from './placing.ts';
import { renderPlayers } from './players.ts';
import { renderScoreTrack } from './score-track.ts';
import { SeatKeeper } from './seat.ts';
import { SheetToggle } from './sheet.ts';
import { GameScreenState } from './state.ts';
import { renderTray } from './tray.ts';
import { renderTurn, tickTurn } from './turn-panel.ts';
import { SinceShow } from './since.ts';
import { showsSince, sinceYourLastMove } from './since-moves.ts';

export function mountGame(root: HTMLElement, gameId: string): () => void {
  ensureTileDefs();
  const ui = layOut(root, gameId);
  const state = new GameScreenState();
  const seat = new SeatKeeper(gameId);
  // A seat this browser holds: by its token, or as the signed-in player seated without one.
  const holdsSeat = (v: GameView) => seat.held !== null || v.you !== null;
  const overlay = new Overlay(ui.overlay);
  const herald = new Herald(ui.announcer);
  const sheet = new SheetToggle(ui.game, ui.sheetToggle, ui.unread);
  const finalScoring = new FinalScoringShow();
  const since = new SinceShow();
  /** The welcome's moves, until the first view says whether they show "since you last looked". */
  let welcomed: LastMove[] | null = null;
  let hover: { x: number; y: number } | null = null;
  let destroyed = false;
  let sinceShown = false;

  const chat = new ChatPanel(ui.chat, gameId, {
    send: (content) => socket.sendChat(content),
    onHeard: () => {
      play('chat');
      // On a phone the talk is in the closed sheet: its toggle counts what came meanwhile.
      sheet.heard(ui.chat);
    },
  });
  const board = new BoardView(ui.boardHost, {
    onCell: (x, y) => placing.clickCell(x, y),
    onSpot: (spot) => placing.toggleSpot(spot),
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
  const placing = new Placing(state, board, { sendMove: (turn, move) => socket.sendMove(turn, move), sendHint: (turn) => socket.sendHint(turn) }, render);
  let connection: { s: ConnState; detail?: string } = { s: 'connecting' };
  // Redrawn on every view too: the seat may be known only from the view (`you`: a signed-in
  // player's seat played without this browser's token), after the socket opened.
  const drawConn = () => renderConn(ui.conn, connection.s, connection.detail, seat.held?.seat ?? state.view?.you ?? null);
  let socket = connect();

  function connect(): GameSocket {
    return new GameSocket(gameId, seat.held?.token, {
      onWelcome: (you, moves, talk) => {
        state.history = moves;
        welcomed = moves;
        chat.setSeat(you);
        chat.load(talk);
        herald.caughtUp(moves);
        if (seat.held && you === null) seat.forget();
        ui.game.classList.toggle('spectating', you === null);
      },
      onState,
      onChat: (message) => chat.add(message),
      onError: (code, message) => {
        state.pending = false;
        if (state.hint === 'asked') state.hint = null;
        if (code === 'bad_token') {
          toast('This browser no longer holds a seat in this game: watching instead.', 'error', 6000);
          seat.forget();
        } else if (code === 'unknown_game') {
          overlay.missing(message);
        } else if (code !== 'stale_turn') {
          // stale_turn: the view moved on (a bot or a reconnect); the next state frame puts us right.
          toast(message, 'error', 5000);
        }
        render();
      },
      onConnState: (s, detail) => {
        connection = { s, detail };
        drawConn();
        if (s === 'reconnecting') state.pending = false;
      },
      onHint: (turn, move) => {
        if (state.view?.turn !== turn) return;
        state.hint = { turn, move };
        board.reveal(move.x, move.y);
        render();
      },
    });
  }

  function onState(v: GameView, last: LastMove | null): void {
    const prev = state.view;
    state.apply(v, last);
    followRatings(prev, v);
    // A toast belongs to the turn that raised it.
    if (prev && prev.turn !== v.turn) clearToast();
    const arrived = state.arrived;
    if (arrived) showScorings(board, v, arrived);
    if (arrived && v.status === 'finished' && arrived.events.some((e) => e.phase === 'final'))
      finalScoring.start(board, ui.finalBanner, v, arrived, () => overlay.afterFinalScoring(state.view ?? v, holdsSeat(state.view ?? v), false));
    herald.hear(prev, v, last);
    render();
    overlay.follow(v, holdsSeat(v), finalScoring.running);
    if (welcomed) showSince(v, welcomed);
  }

  /** A turn-based game opened after others moved: their moves since this player's last one,
   * replayed on the board and listed (once per opening; a reconnect's welcome does not replay). */
  function showSince(v: GameView, history: LastMove[]): void {
    welcomed = null;
    const moves = sinceYourLastMove(history, v.you);
    if (!showsSince(v, moves) || sinceShown) return;
    sinceShown = true;
    since.start(ui.sinceBanner, v, moves, {
      hide: (keys) => {
        state.hidden = keys;
        render();
      },
      landed: (move) => {
        board.reveal(move.move.x, move.move.y);
        board.flashTile(move.move.x, move.move.y, 1200);
      },
    });
  }

  /** The seats' ratings, asked for by player id; asked again once when a rated game ends here,
   * since its end moved them. */
  function followRatings(prev: GameView | null, v: GameView): void {
    const ids = v.seats.flatMap((s) => (s.playerId ? [s.playerId] : []));
    void loadRatings(ids, v.rated === true && v.status === 'finished' && prev?.status !== undefined && prev.status !== 'finished');
    if (v.rated && v.status === 'finished' && prev?.status !== 'finished') void loadRatingChanges(v.gameId, ids);
  }
  const unratings = onRatings(() => {
    render();
    fillRatings(ui.overlay);
  });

  function render(): void {
    if (destroyed) return;
    const v = state.view;
    ui.game.classList.toggle('my-turn', state.myTurn());
    ui.game.dataset.status = v?.status ?? 'loading';
    ui.game.dataset.turn = String(v?.turn ?? -1);
    ui.game.classList.toggle('spectating', !!v && v.you === null);
    if (!v) return;
    drawConn();
    renderBoard(board, state, hover);
    renderTurn(ui.turn, state);
    renderTray(ui.tile, state);
    renderPlayers(ui.players, v);
    renderScoreTrack(ui.track, v);
    renderBag(ui.bag, v, state.discarded);
    renderLog(ui.log, state.log, v);
    renderBanner(ui.banner, v, holdsSeat(v));
  }

  const ticker = window.setInterval(() => tickTurn(ui.turn, state), 250);

  // The top bar and the board tools work before the first state frame; the rest is drawn from one.
  const actions: Record<string, (v: GameView | null) => void> = {
    'zoom-in': () => zoomBoard(board, 1.25),
    'zoom-out': () => zoomBoard(board, 0.8),
    fit: () => board.fit(),
    'rot-cw': () => placing.rotate(1),
    'rot-ccw': () => placing.rotate(-1),
    confirm: () => placing.confirm(),
    takeback: () => placing.takeBack(),
    hint: () => placing.askHint(),
    claim: () => {
      if (!socket.sendClaim()) toast('Not connected: try again once the connection is back.', 'error');
    },
    invite: () => void copyText(gameLink(gameId)).then((ok) => toast(ok ? 'Invite link copied.' : gameLink(gameId))),
    'skip-since': () => since.skip(),
    'close-since': () => {
      since.stop();
      state.hidden = new Set();
      render();
    },
    'skip-final': (v) => {
      finalScoring.stop();
      if (v) overlay.afterFinalScoring(v, holdsSeat(v), true);
    },
    'show-end': (v) => {
      if (v) overlay.reopenEnd(v, holdsSeat(v));
    },
    'close-overlay': () => overlay.closeEnd(),
    rematch: (v) => {
      if (v) void seat.rematch(v);
    },
    sheet: () => sheet.flip(),
    join: (v) => {
      if (v) overlay.offerJoin(v);
    },
    watch: () => overlay.watch(),
  };
  const unbind = bindInput({
    root,
    game: ui.game,
    state,
    placing,
    dialogOpen: () => overlay.open,
    boardFocused: () => document.activeElement === board.svg,
    to: {
      action: (name) => actions[name]?.(state.view),
      logEntry: (i) => showLogEntry(board, state.view, state.log[i]),
      join: async (name) => {
        if (!(await seat.join(name))) return;
        overlay.hide();
        socket.close();
        socket = connect();
      },
      closeEnd: () => overlay.closeEnd(),
      fit: () => board.fit(),
      zoom: (factor) => zoomBoard(board, factor),
    },
  });

  return () => {
    destroyed = true;
    unratings();
    finalScoring.stop();
    since.stop();
    clearInterval(ticker);
    socket.close();
    board.destroy();
    unbind();
    document.title = 'Tessera';
  };
}
