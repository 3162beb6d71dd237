// The replay viewer: reads a finished game's record (GET /api/games/:id/record) and replays it in
// the browser with the same pure engine the server uses, one snapshot per move. Step, play at a
// chosen speed, or jump anywhere with the slider or the move list. The analysis panel
// (analysis.ts) adds what each move cost against the expert bot, with its move as a ghost.

import { boardTiles, followersOnBoard, pointsByKind, type BoardTile, type Follower, type Points } from '../../bot-engine/game.ts';
import { replaySteps, type GameRecord, type RecordMove } from '../../bot-engine/record.ts';
import type { ScoreEvent } from '../../bot-engine/rules.ts';
import { AnalysisPanel } from './analysis.ts';
import { HttpError, api } from './api.ts';
import { ICONS, PLAYER_COLORS, PLAYER_GLYPHS, tileIcon } from './art.ts';
import { ensureTileDefs } from './defs.ts';
import { BoardView } from './board.ts';
import { esc, inputTarget, patch } from './dom.ts';
import type { SeatView } from './protocol.ts';
import { figuresMarkup } from './game/players.ts';
import { capitalize, eventText, moveText, moveWhere, recordedName, tileWords } from './text.ts';

interface Snapshot {
  board: BoardTile[];
  followers: Follower[];
  scores: number[];
  points: Points[];
  followersLeft: number[];
  /** The expansions' figures left, by seat (null: not in this game's rules). */
  largeLeft: number[] | null;
  abbotsLeft: number[] | null;
  /** The move that led here (null for the start and for final scoring). */
  move: RecordMove | null;
  seat: number | null;
  events: ScoreEvent[];
  label: string;
}

export function buildSnapshots(record: GameRecord): Snapshot[] {
  const seats = Array.from({ length: record.players.length }, (_, p) => p);
  const out: Snapshot[] = [];
  for (const step of replaySteps(record)) {
    const s = step.state;
    const move = step.kind === 'move' ? step.move : null;
    const label =
      step.kind === 'start'
        ? 'Start: tile D at (0, 0)'
        : step.kind === 'final'
          ? 'Final scoring'
          : move && 'discard' in move
            ? `${capitalize(tileWords(move.discard, true))} fits nowhere: discarded`
            : '';
    out.push({
      board: boardTiles(s),
      followers: followersOnBoard(s),
      scores: seats.map((p) => s.score(p)),
      points: seats.map((p) => pointsByKind(s, p)),
      followersLeft: seats.map((p) => s.followers(p)),
      largeLeft: record.rules?.innsCathedrals ? seats.map((p) => s.largeFollowers(p)) : null,
      abbotsLeft: record.rules?.abbot ? seats.map((p) => s.abbots(p)) : null,
      move,
      seat: step.kind === 'move' ? step.seat : null,
      events: step.events,
      label,
    });
  }
  return out;
}

/** `analyse`: start the game's analysis at once (the end screen's "Analyse" link). */
export function mountReplay(root: HTMLElement, gameId: string, analyse = false): () => void {
  ensureTileDefs();
  root.innerHTML = `<div class="game replay" data-game="${esc(gameId)}">
  <header class="topbar">
    <a class="brand" href="#/"><span class="brand-mark" aria-hidden="true"></span>Tessera</a>
    <span class="game-id">replay of <code>${esc(gameId)}</code></span>
    <a class="btn small ghost" href="#/g/${encodeURIComponent(gameId)}">Open the game</a>
  </header>
  <main class="board-wrap"><h1 class="sr-only">Replay of game ${esc(gameId)}</h1><div class="board-host"></div>
    <div class="board-tools" role="toolbar" aria-label="Board view">
      <button class="btn icon" data-action="zoom-in" aria-label="Zoom in">+</button><button class="btn icon" data-action="zoom-out" aria-label="Zoom out">−</button><button class="btn icon" data-action="fit" aria-label="Fit the board">⤢</button>
    </div></main>
  <aside class="panel">
    <section class="replay-controls" aria-label="Replay controls">
      <p class="muted">Loading the record…</p>
    </section>
    <section class="analysis-box" aria-label="Analysis"></section>
    <section class="players-box"></section>
    <section class="log-box"><h2>Moves</h2><ol class="log moves"></ol></section>
  </aside></div>`;
  const controls = root.querySelector<HTMLElement>('.replay-controls')!;
  const playersBox = root.querySelector<HTMLElement>('.players-box')!;
  const movesEl = root.querySelector<HTMLElement>('.moves')!;
  const analysisBox = root.querySelector<HTMLElement>('.analysis-box')!;
  let analysis: AnalysisPanel | null = null;
  const board = new BoardView(root.querySelector<HTMLElement>('.board-host')!);
  let snaps: Snapshot[] = [];
  let names: string[] = [];
  let seats: SeatView[] = [];
  let at = 0;
  let playing: number | undefined;
  let speed = 2;

  function seatViews(i: number): SeatView[] {
    const sn = snaps[i];
    return names.map((name, p) => ({
      seat: p,
      name,
      kind: 'person',
      connected: true,
      standIn: null,
      score: sn.scores[p],
      followers: sn.followersLeft[p],
      ...(sn.largeLeft ? { large: sn.largeLeft[p] } : {}),
      ...(sn.abbotsLeft ? { abbots: sn.abbotsLeft[p] } : {}),
      points: sn.points[p],
    }));
  }

  function go(i: number): void {
    at = Math.max(0, Math.min(snaps.length - 1, i));
    const sn = snaps[at];
    board.setTiles(sn.board);
    board.setFollowers(sn.followers, sn.board);
    const m = sn.move;
    board.setMarks(m && !('discard' in m) ? [{ x: m.x, y: m.y, player: sn.seat, recent: true }] : []);
    if (m && !('discard' in m)) board.reveal(m.x, m.y);
    const judged = analysis?.moveAt(at);
    const suggest = judged && judged.loss > 0 ? judged.best : null;
    board.setSuggestion(suggest && judged ? { tile: judged.tile, ...suggest, player: judged.seat } : null);
    if (suggest) board.reveal(suggest.x, suggest.y);
    seats = seatViews(at);
    renderControls();
    renderPlayers();
    for (const e of movesEl.querySelectorAll('.current')) e.classList.remove('current');
    const li = movesEl.querySelector<HTMLElement>(`[data-step="${at}"]`);
    li?.classList.add('current');
    // Scroll the move list only (scrollIntoView would scroll the whole panel too).
    if (li) {
      const top = li.offsetTop - movesEl.offsetTop;
      if (top < movesEl.scrollTop || top + li.offsetHeight > movesEl.scrollTop + movesEl.clientHeight) movesEl.scrollTop = top - movesEl.clientHeight / 2;
    }
    root.querySelector<HTMLElement>('.game')!.dataset.step = String(at);
  }

  function label(i: number): string {
    const sn = snaps[i];
    const m = sn.move;
    if (m && !('discard' in m)) return moveText({ turn: i - 1, seat: sn.seat ?? 0, tile: m.tile, move: m, events: sn.events, discarded: [] }, seats.length ? seats : seatViews(i));
    return sn.label;
  }

  function renderControls(): void {
    const sn = snaps[at];
    const m = sn.move;
    patch(
      controls,
      `<div class="tile-row">${tileIcon(m && !('discard' in m) ? m.tile : null, m && !('discard' in m) ? m.rotation : 0, 72)}<div><p><strong>Step ${at}</strong> of ${snaps.length - 1}</p><p class="small">${esc(label(at))}</p>${m && !('discard' in m) ? `<p class="small muted">${esc(moveWhere({ tile: m.tile, move: m }))}</p>` : ''}</div></div>
<input type="range" min="0" max="${snaps.length - 1}" value="${at}" data-action="seek" data-focus-key="seek" aria-label="Jump to step">
<div class="row transport" role="toolbar" aria-label="Replay">
<button class="btn icon" data-action="start" data-focus-key="start" aria-label="To the start" title="Start (Home)">${ICONS.start}</button>
<button class="btn icon" data-action="back" data-focus-key="back" aria-label="Step back" title="Step back (←)">${ICONS.back}</button>
<button class="btn icon primary" data-action="play" data-focus-key="play" aria-label="${playing ? 'Pause' : 'Play'}" title="Play / pause (Space)">${playing ? ICONS.pause : ICONS.play}</button>
<button class="btn icon" data-action="fwd" data-focus-key="fwd" aria-label="Step forward" title="Step forward (→)">${ICONS.fwd}</button>
<button class="btn icon" data-action="end" data-focus-key="end" aria-label="To the end" title="End (End)">${ICONS.end}</button>
<select data-action="speed" data-focus-key="speed" aria-label="Speed">${[1, 2, 4, 8].map((s) => `<option value="${s}" ${s === speed ? 'selected' : ''}>${s} moves/s</option>`).join('')}</select></div>
${sn.events.length ? `<ul class="events">${sn.events.map((e) => `<li>${esc(eventText(e, seats))}</li>`).join('')}</ul>` : ''}${verdictNote()}`,
    );
  }

  /** What the analysis says of the move at this step. */
  function verdictNote(): string {
    const judged = analysis?.moveAt(at);
    if (!judged) return '';
    return judged.loss > 0
      ? `<p class="small suggest-note" data-loss="${judged.loss}">This move lost <strong>${judged.loss}</strong> points against the expert, whose move is drawn dashed on the board.</p>`
      : '<p class="small suggest-note" data-loss="0">The expert bot would have played this move too.</p>';
  }

  function renderPlayers(): void {
    const max = Math.max(...seats.map((s) => s.score));
    patch(
      playersBox,
      `<h2>Players</h2><ol class="players">${seats
        .map(
          (
            s,
          ) => `<li class="player${s.score === max && at === snaps.length - 1 ? ' current' : ''}" style="--pc:${PLAYER_COLORS[s.seat]}"><div class="p-head"><span class="swatch">${PLAYER_GLYPHS[s.seat]}</span><span class="p-name">${esc(s.name)}</span><span class="p-score">${s.score}</span></div>
${figuresMarkup(s)}
<div class="p-points"><span>City ${s.points.city}</span><span>Road ${s.points.road}</span><span>Monastery ${s.points.monastery}</span><span>Farm ${s.points.farm}</span></div></li>`,
        )
        .join('')}</ol>`,
    );
  }

  function renderMoves(): void {
    movesEl.innerHTML = snaps
      .map((sn, i) => {
        const text = label(i);
        return `<li data-step="${i}" data-action="goto" tabindex="-1"${sn.seat !== null ? ` style="--pc:${PLAYER_COLORS[sn.seat]}"` : ''}><span class="log-dot">${sn.seat !== null ? PLAYER_GLYPHS[sn.seat] : '•'}</span><span>${i}. ${esc(text)}${sn.events.length ? ` <span class="muted">· ${sn.events.map((e) => `+${e.points} ${e.kind}`).join(', ')}</span>` : ''}</span></li>`;
      })
      .join('');
  }

  function play(on: boolean): void {
    clearInterval(playing);
    playing = undefined;
    if (on) {
      if (at >= snaps.length - 1) go(0);
      playing = window.setInterval(() => {
        if (at >= snaps.length - 1) play(false);
        else go(at + 1);
      }, 1000 / speed);
    }
    renderControls();
  }

  async function load(): Promise<void> {
    try {
      const record = (await api.record(gameId)) as GameRecord;
      // Bots by the names they had in the game (the record keeps the server's "greedy bot 3").
      names = record.players.map((name, seat) => recordedName(name, seat));
      snaps = buildSnapshots(record);
      seats = seatViews(0);
      renderMoves();
      analysis = new AnalysisPanel(analysisBox, gameId, names);
      analysisBox.addEventListener('analysis-ready', () => go(at));
      go(snaps.length - 1);
      board.fit();
      void analysis.load(analyse);
    } catch (e) {
      controls.innerHTML = `<p class="error">${esc(e instanceof HttpError ? (e.code === 'not_finished' ? 'This game is still being played: its record (which holds the bag order) is published when it ends.' : e.message) : `The record could not be replayed: ${(e as Error).message}`)}</p><a class="btn" href="#/g/${encodeURIComponent(gameId)}">Watch it live</a>`;
    }
  }

  const onClick = (e: MouseEvent) => {
    const t = (e.target as HTMLElement).closest<HTMLElement>('[data-action]');
    if (!t || !snaps.length) {
      if (t?.dataset.action === 'zoom-in') board.zoomAt(1.25);
      return;
    }
    switch (t.dataset.action) {
      case 'start':
        play(false);
        return go(0);
      case 'back':
        play(false);
        return go(at - 1);
      case 'fwd':
        play(false);
        return go(at + 1);
      case 'end':
        play(false);
        return go(snaps.length - 1);
      case 'play':
        return play(!playing);
      case 'goto':
        play(false);
        return go(Number(t.dataset.step));
      case 'analyse':
        return void analysis?.request();
      case 'zoom-in':
        return board.zoomAt(1.25);
      case 'zoom-out':
        return board.zoomAt(0.8);
      case 'fit':
        return board.fit();
    }
  };
  const onInput = (e: Event) => {
    const t = e.target as HTMLInputElement;
    if (t.dataset.action === 'seek') {
      // Read before anything redraws: a redraw sets the slider to the step shown.
      const step = Number(t.value);
      play(false);
      go(step);
    } else if (t.dataset.action === 'speed') {
      speed = Number(t.value);
      if (playing) play(true);
    }
  };
  const onKey = (e: KeyboardEvent) => {
    if (inputTarget(e) || !snaps.length || e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.activeElement === board.svg && e.key.startsWith('Arrow')) return;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => go(at - 1),
      ArrowRight: () => go(at + 1),
      ',': () => go(at - 1),
      '.': () => go(at + 1),
      Home: () => go(0),
      End: () => go(snaps.length - 1),
      ' ': () => play(!playing),
    };
    const fn = keys[e.key];
    if (fn) {
      e.preventDefault();
      if (e.key !== ' ') play(false);
      fn();
    }
  };
  root.addEventListener('click', onClick);
  root.addEventListener('input', onInput);
  root.addEventListener('change', onInput);
  document.addEventListener('keydown', onKey);
  void load();
  return () => {
    clearInterval(playing);
    analysis?.destroy();
    board.destroy();
    root.removeEventListener('click', onClick);
    root.removeEventListener('input', onInput);
    root.removeEventListener('change', onInput);
    document.removeEventListener('keydown', onKey);
  };
}
