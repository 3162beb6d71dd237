// The game screen: board, current tile with rotation, legal cells, ghost at the pointer, the
// tentative placement with follower spots, confirm / take back, the side panel (players,
// scores, followers, tiles left, whose turn, turn clock, bot thinking, log) and the end screen.
// Seated players reconnect by themselves with the token stored for this game; everyone else
// watches.

import { ApiError, api, savedName, saveName, seats as heldSeats, type HeldSeat } from './api.ts';
import { ICONS, PLAYER_COLORS, PLAYER_GLYPHS, meepleIcon, tileIcon } from './art.ts';
import { ensureTileDefs } from './defs.ts';
import { BoardView, type Highlight } from './board.ts';
import { copyText, esc, fmtDuration, gameLink, inputTarget, patch, toast } from './dom.ts';
import { GameSocket, type ConnState } from './net.ts';
import type { GameView, LastMove, Placement, SeatView } from './protocol.ts';
import { eventText, glyphName, moveText, seatName, seatRole, spotLabel } from './text.ts';

interface Selection {
  x: number;
  y: number;
  rotation: number;
  meeple: string | null;
}

interface LogEntry {
  turn: number;
  seat: number | null;
  text: string;
  detail: string[];
  kind: 'move' | 'score' | 'discard' | 'info' | 'final';
}

const ROTATIONS = [0, 90, 180, 270];

export function mountGame(root: HTMLElement, gameId: string): () => void {
  ensureTileDefs();
  root.innerHTML = `
<div class="game" data-game="${esc(gameId)}">
  <header class="topbar">
    <a class="brand" href="#/" title="Back to the lobby"><span class="brand-mark" aria-hidden="true"></span>Tessera</a>
    <span class="game-id" title="Game id">game <code>${esc(gameId)}</code></span>
    <button class="btn small ghost" data-action="invite" data-focus-key="invite">Invite link</button>
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
  </main>
  <aside class="panel" aria-label="Game panel">
    <section class="turn-box" aria-live="polite"></section>
    <section class="tile-box"></section>
    <section class="players-box" aria-label="Players"></section>
    <section class="log-box"><h2>Game log</h2><ol class="log" aria-live="polite"></ol></section>
    <p class="keys-help">Keys: <kbd>R</kbd> rotate, <kbd>Shift</kbd>+<kbd>R</kbd> back, <kbd>N</kbd>/<kbd>P</kbd> next/previous spot on the board, <kbd>0</kbd>–<kbd>9</kbd> follower, <kbd>Enter</kbd> confirm, <kbd>Esc</kbd> take back, arrows pan, <kbd>+</kbd>/<kbd>−</kbd> zoom, <kbd>F</kbd> fit.</p>
  </aside>
  <div class="overlay" hidden></div>
</div>`;

  const gameEl = root.querySelector<HTMLElement>('.game')!;
  const turnBox = root.querySelector<HTMLElement>('.turn-box')!;
  const tileBox = root.querySelector<HTMLElement>('.tile-box')!;
  const playersBox = root.querySelector<HTMLElement>('.players-box')!;
  const logEl = root.querySelector<HTMLElement>('.log')!;
  const connEl = root.querySelector<HTMLElement>('.conn')!;
  const banner = root.querySelector<HTMLElement>('.board-banner')!;
  const overlay = root.querySelector<HTMLElement>('.overlay')!;

  let held: HeldSeat | null = heldSeats.get(gameId);
  let view: GameView | null = null;
  let sel: Selection | null = null;
  let rotation = 0;
  let hover: { x: number; y: number } | null = null;
  let pending = false;
  let endDismissed = false;
  let joinDismissed = false;
  let turnKey = '';
  let turnStarted = performance.now();
  let botSince: number | null = null;
  let lastBot: { name: string; ms: number; source: string } | null = null;
  let legal = new Map<string, Map<number, string[]>>();
  const log: LogEntry[] = [];
  const seenTurns = new Set<number>();
  /** The moves so far from the welcome; the log catches up from them on the next state frame. */
  let history: LastMove[] | null = null;
  const lastBySeat = new Map<number, { x: number; y: number; turn: number }>();
  let destroyed = false;

  const board = new BoardView(root.querySelector<HTMLElement>('.board-host')!, {
    onCell: (x, y) => clickCell(x, y),
    onSpot: (spot) => chooseSpot(spot),
    onHover: (c) => {
      hover = c;
      renderGhost();
    },
  });

  let socket = connect();

  function connect(): GameSocket {
    return new GameSocket(gameId, held?.token, {
      onWelcome: (seat, moves) => {
        history = moves;
        if (held && seat === null) {
          heldSeats.forget(gameId);
          held = null;
        }
        gameEl.classList.toggle('spectating', seat === null);
      },
      onState: (v, last) => onState(v, last),
      onError: (code, message) => {
        pending = false;
        if (code === 'bad_token') {
          toast('This browser no longer holds a seat in this game: watching instead.', 'error', 6000);
          heldSeats.forget(gameId);
          held = null;
        } else if (code === 'unknown_game') {
          showMissing(message);
        } else if (code === 'stale_turn') {
          // The view moved on (a bot or a reconnect); the next state frame puts us right.
        } else {
          toast(message, 'error', 5000);
        }
        render();
      },
      onConnState: (s, detail) => showConn(s, detail),
    });
  }

  function showConn(s: ConnState, detail?: string): void {
    connEl.dataset.conn = s;
    connEl.textContent =
      s === 'open'
        ? held
          ? `connected · seat ${held.seat + 1}`
          : 'connected · watching'
        : s === 'connecting'
          ? 'connecting…'
          : s === 'reconnecting'
            ? `reconnecting…${detail ? ` (${detail})` : ''}`
            : `closed${detail ? `: ${detail}` : ''}`;
    if (s === 'reconnecting') pending = false;
  }

  function showMissing(message: string): void {
    overlay.hidden = false;
    overlay.innerHTML = `<div class="dialog" role="dialog" aria-modal="true" aria-labelledby="missing-title"><h2 id="missing-title">No such game</h2><p>${esc(message)}</p><p>The game may have ended on a server that has since restarted.</p><div class="row"><a class="btn primary" href="#/">Back to the lobby</a></div></div>`;
  }

  // ---- state frames ----

  function onState(v: GameView, last: LastMove | null): void {
    const prev = view;
    view = v;
    if (prev && prev.turn !== v.turn) {
      sel = null;
      pending = false;
    }
    if (v.legal === null) sel = null;
    legal = new Map();
    for (const p of v.legal ?? []) {
      const key = `${p.x},${p.y}`;
      if (!legal.has(key)) legal.set(key, new Map());
      legal.get(key)!.set(p.rotation, p.meeples);
    }
    // The clock restarts when the seat to move or the turn changes.
    const key = `${v.turn}:${v.currentSeat}`;
    if (key !== turnKey) {
      turnKey = key;
      turnStarted = performance.now();
    }
    if (v.botThinking && botSince === null) botSince = performance.now();
    if (!v.botThinking) botSince = null;
    // Moves missed while away (or before a refresh) come after every move already logged, and
    // addLog skips turns it has seen, so what was logged live (bot times included) stays.
    if (history) {
      for (const h of history) addLog(h, v.seats);
      history = null;
    }
    if (last) addLog(last, v.seats);
    if (v.status === 'finished' && !seenTurns.has(-1)) {
      seenTurns.add(-1);
      if (prev && prev.status !== 'finished') addInfo('The game is over: final scoring done.', 'final');
    }
    if (v.currentSeat !== null && v.currentSeat === v.you && prev && prev.currentSeat !== v.you) {
      document.title = `Your turn · Tessera`;
    } else if (v.currentSeat !== v.you) {
      document.title = 'Tessera';
    }
    render();
    if (v.status === 'finished' && !endDismissed && (overlay.hidden || !overlay.querySelector('.end'))) showEnd();
    else if (v.status === 'waiting' && !held && !joinDismissed && overlay.hidden && v.seats.some((s) => s.kind === 'person' && !s.name)) showJoin();
    else if (v.status === 'playing' && overlay.querySelector('[data-form=join]')) overlay.hidden = true;
  }

  function addLog(last: LastMove, seats: SeatView[]): void {
    if (seenTurns.has(last.turn)) return;
    seenTurns.add(last.turn);
    lastBySeat.set(last.seat, { x: last.move.x, y: last.move.y, turn: last.turn });
    const detail: string[] = [];
    if (last.bot) {
      detail.push(`${last.bot.standIn ? 'a bot stood in · ' : ''}thought ${Math.round(last.bot.elapsedMs)} ms${last.bot.source && last.bot.source !== 'search' ? ` (${last.bot.source})` : ''}`);
      lastBot = { name: seatName(seats, last.seat), ms: last.bot.elapsedMs, source: last.bot.source };
    }
    log.unshift({ turn: last.turn, seat: last.seat, text: moveText(last, seats), detail, kind: 'move' });
    for (const e of last.events)
      log.unshift({ turn: last.turn, seat: e.players.length === 1 ? e.players[0] : null, text: eventText(e, seats), detail: [], kind: e.phase === 'final' ? 'final' : 'score' });
    for (const d of last.discarded) log.unshift({ turn: last.turn, seat: null, text: `Tile ${d} fits nowhere and is discarded; the same player draws again.`, detail: [], kind: 'discard' });
    if (log.length > 300) log.length = 300;
  }

  function addInfo(text: string, kind: LogEntry['kind'] = 'info'): void {
    log.unshift({ turn: view?.turn ?? 0, seat: null, text, detail: [], kind });
  }

  // ---- placing ----

  const myTurn = () => !!view && view.status === 'playing' && view.you !== null && view.currentSeat === view.you && !!view.legal;

  function legalRotations(x: number, y: number): number[] {
    const m = legal.get(`${x},${y}`);
    return m ? ROTATIONS.filter((r) => m.has(r)) : [];
  }

  /** The rotation to show at a cell: the chosen one if it fits, else the next that does. */
  function rotationAt(x: number, y: number, from = rotation, dir = 1): number | null {
    const rs = legalRotations(x, y);
    if (!rs.length) return null;
    for (let i = 0; i < 4; i++) {
      const r = (((from + dir * i * 90) % 360) + 360) % 360;
      if (rs.includes(r)) return r;
    }
    return rs[0];
  }

  function clickCell(x: number, y: number): void {
    if (!myTurn() || pending) return;
    if (sel && sel.x === x && sel.y === y) {
      rotate(1);
      return;
    }
    const r = rotationAt(x, y);
    if (r === null) {
      if (!view?.board.some((t) => t.x === x && t.y === y) && legal.size) toast(`${view?.tile ?? 'The tile'} cannot go there: its edges must match every neighbour.`);
      return;
    }
    rotation = r;
    sel = { x, y, rotation: r, meeple: null };
    board.reveal(x, y);
    render();
  }

  function chooseSpot(spot: string | null): void {
    if (!sel || pending) return;
    sel.meeple = sel.meeple === spot ? null : spot;
    render();
  }

  function rotate(dir: 1 | -1): void {
    if (!view?.tile || pending) return;
    if (sel) {
      const rs = legalRotations(sel.x, sel.y);
      if (rs.length <= 1) {
        toast(rs.length ? 'Only this rotation fits here.' : 'Nothing fits here.');
        return;
      }
      const next = rotationAt(sel.x, sel.y, (sel.rotation + dir * 90 + 360) % 360, dir);
      if (next === null) return;
      sel = { ...sel, rotation: next, meeple: null };
      rotation = next;
    } else {
      rotation = (rotation + dir * 90 + 360) % 360;
    }
    render();
  }

  function cycleSpot(dir: 1 | -1): void {
    if (!myTurn() || pending || !view?.legal?.length) return;
    const cells = [...legal.keys()].map((k) => k.split(',').map(Number) as [number, number]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    const at = sel ? cells.findIndex(([x, y]) => x === sel!.x && y === sel!.y) : -1;
    const next = cells[(at + dir + cells.length) % cells.length];
    const r = rotationAt(next[0], next[1])!;
    rotation = r;
    sel = { x: next[0], y: next[1], rotation: r, meeple: null };
    board.reveal(next[0], next[1]);
    render();
  }

  function spotsFor(s: Selection): string[] {
    return legal.get(`${s.x},${s.y}`)?.get(s.rotation) ?? [];
  }

  function confirm(): void {
    if (!sel || !view || pending || !myTurn()) return;
    const ok = socket.sendMove(view.turn, { x: sel.x, y: sel.y, rotation: sel.rotation, meeple: sel.meeple });
    if (!ok) {
      toast('Not connected: the move will be possible once the connection is back.', 'error');
      return;
    }
    pending = true;
    render();
  }

  function takeBack(): void {
    if (!sel || pending) return;
    sel = null;
    render();
  }

  // ---- rendering ----

  function render(): void {
    if (destroyed) return;
    const v = view;
    gameEl.classList.toggle('my-turn', myTurn());
    gameEl.dataset.status = v?.status ?? 'loading';
    gameEl.dataset.turn = String(v?.turn ?? -1);
    gameEl.classList.toggle('spectating', !!v && v.you === null);
    if (!v) return;
    board.setTiles(v.board);
    board.setFollowers(v.followers, v.board);
    const latest = [...lastBySeat.entries()].sort((a, b) => b[1].turn - a[1].turn);
    board.setMarks(latest.filter(([, m]) => v.board.some((t) => t.x === m.x && t.y === m.y)).map(([seat, m], i) => ({ x: m.x, y: m.y, player: seat, recent: i === 0 })));
    const cells: Highlight[] =
      myTurn() && !pending
        ? [...legal.entries()]
            .map(([k, rots]) => {
              const [x, y] = k.split(',').map(Number);
              return { x, y, fits: rots.has(rotation) };
            })
            .filter((c) => !sel || c.x !== sel.x || c.y !== sel.y)
        : [];
    board.setHighlights(cells);
    board.setTentative(sel && v.tile ? { tile: v.tile, x: sel.x, y: sel.y, rotation: sel.rotation, player: v.you ?? 0, spots: pending ? [] : spotsFor(sel), meeple: sel.meeple } : null);
    renderGhost();
    renderTurn();
    renderTile();
    renderPlayers();
    renderLog();
    renderBanner();
  }

  function renderGhost(): void {
    const v = view;
    if (!v?.tile || !hover || !myTurn() || pending || (sel && sel.x === hover.x && sel.y === hover.y)) {
      board.setGhost(null);
      return;
    }
    const { x, y } = hover;
    if (v.board.some((t) => t.x === x && t.y === y)) {
      board.setGhost(null);
      return;
    }
    const r = rotationAt(x, y);
    const touches = v.board.some((t) => Math.abs(t.x - x) + Math.abs(t.y - y) === 1);
    if (r === null && !touches) {
      board.setGhost(null);
      return;
    }
    board.setGhost({ tile: v.tile, x, y, rotation: r ?? rotation, fits: r !== null });
  }

  function renderTurn(): void {
    const v = view!;
    let html = '';
    if (v.status === 'waiting') {
      const open = v.seats.filter((s) => s.kind === 'person' && !s.name).length;
      html = `<h2>Waiting for players</h2><p>${open} open ${open === 1 ? 'seat' : 'seats'}. Share the invite link; the game starts when every seat is taken.</p>`;
    } else if (v.status === 'finished') {
      const best = Math.max(...v.seats.map((s) => s.score));
      const winners = v.seats.filter((s) => s.score === best).map((s) => seatName(v.seats, s.seat));
      html = `<h2>Game over</h2><p>${esc(winners.join(' and '))} ${winners.length > 1 ? 'share the win' : 'wins'} with ${best}.</p><button class="btn" data-action="show-end" data-focus-key="show-end">Final scores</button> <a class="btn" href="#/replay/${encodeURIComponent(v.gameId)}" data-focus-key="replay">Replay</a>`;
    } else {
      const cur = v.currentSeat ?? 0;
      const seat = v.seats[cur];
      const mine = v.you === cur;
      const who = mine ? 'Your turn' : `${esc(seatName(v.seats, cur))}’s turn`;
      html = `<div class="whose" style="--pc:${PLAYER_COLORS[cur]}">${meepleIcon(cur, 22)}<h2>${who}</h2></div>
<p class="clock-line"><span class="clock" data-clock></span>${seat?.kind === 'bot' || v.botThinking ? ` · <span class="thinking" data-thinking>${v.botThinking ? 'bot is thinking…' : ''}</span>` : ''}</p>
${mine ? `<p class="hint">${sel ? (pending ? 'Sending…' : 'Pick a follower spot (or none), then confirm.') : 'Click a square to place the tile: solid yellow fits as shown, dashed fits once turned.'}</p>` : ''}
${lastBot ? `<p class="muted small">Last bot move: ${esc(lastBot.name)}, ${Math.round(lastBot.ms)} ms</p>` : ''}`;
    }
    patch(turnBox, html);
    tick();
  }

  function renderTile(): void {
    const v = view!;
    if (v.status !== 'playing') {
      patch(tileBox, `<div class="tile-row">${tileIcon(null, 0, 84)}<div><p class="tiles-left"><strong>${v.tilesLeft}</strong> tiles left</p></div></div>`);
      return;
    }
    const mine = myTurn();
    const r = sel ? sel.rotation : rotation;
    const spots = sel ? spotsFor(sel) : [];
    const myFollowers = v.you !== null ? (v.seats[v.you]?.followers ?? 0) : 0;
    const spotButtons =
      sel && mine
        ? `<fieldset class="spots" ${pending ? 'disabled' : ''}><legend>Follower</legend>
<label class="spot-opt"><input type="radio" name="spot" value="" data-spot-choice="" data-focus-key="spot-none" ${sel.meeple === null ? 'checked' : ''}><span><kbd>0</kbd> No follower</span></label>
${spots.map((s, i) => `<label class="spot-opt"><input type="radio" name="spot" value="${esc(s)}" data-spot-choice="${esc(s)}" data-focus-key="spot-${esc(s)}" ${sel!.meeple === s ? 'checked' : ''}><span><kbd>${i + 1}</kbd> ${esc(spotLabel(s, true, { tile: v.tile!, rotation: sel!.rotation }))}</span></label>`).join('')}
${spots.length === 0 ? `<p class="muted small">${myFollowers === 0 ? 'No followers left in your supply.' : 'Every feature of this tile here is already taken.'}</p>` : ''}
</fieldset>
<div class="row confirm-row"><button class="btn primary" data-action="confirm" data-focus-key="confirm" ${pending ? 'disabled' : ''}>${pending ? 'Sending…' : 'Confirm'} <kbd>Enter</kbd></button><button class="btn" data-action="takeback" data-focus-key="takeback" ${pending ? 'disabled' : ''}>Take back <kbd>Esc</kbd></button></div>`
        : '';
    patch(
      tileBox,
      `<div class="tile-row"><div class="current-tile${mine ? ' mine' : ''}" aria-label="Current tile ${esc(v.tile)}">${tileIcon(v.tile, r, 84)}</div>
<div class="tile-meta"><p class="tile-name">Tile <strong>${esc(v.tile ?? '–')}</strong>${mine ? ` · ${r}°` : ''}</p>
<p class="tiles-left"><strong>${v.tilesLeft}</strong> tiles left</p>
${mine ? `<div class="row rot-row"><button class="btn icon" data-action="rot-ccw" data-focus-key="rot-ccw" title="Rotate anticlockwise (Shift+R)" aria-label="Rotate anticlockwise">⟲</button><button class="btn icon" data-action="rot-cw" data-focus-key="rot-cw" title="Rotate clockwise (R)" aria-label="Rotate clockwise">⟳</button></div>` : ''}
</div></div>${spotButtons}`,
    );
  }

  function renderPlayers(): void {
    const v = view!;
    const rows = v.seats
      .map((s) => {
        const current = v.status === 'playing' && v.currentSeat === s.seat;
        const you = v.you === s.seat;
        const followers = Array.from({ length: 7 }, (_, i) => meepleIcon(s.seat, 14, i >= s.followers)).join('');
        const p = s.points;
        return `<li class="player${current ? ' current' : ''}${you ? ' you' : ''}" style="--pc:${PLAYER_COLORS[s.seat]}" data-seat="${s.seat}">
<div class="p-head"><span class="swatch" aria-hidden="true">${PLAYER_GLYPHS[s.seat]}</span>
<span class="p-name">${esc(seatName(v.seats, s.seat))}${you ? ' <em>(you)</em>' : ''}</span>
<span class="p-score" aria-label="score">${s.score}</span></div>
<div class="p-sub"><span class="p-role${s.kind === 'person' && s.name && !s.connected ? ' away' : ''}">${esc(seatRole(s))} · ${esc(glyphName(s.seat))}</span>${current && v.botThinking ? '<span class="chip">thinking…</span>' : current ? '<span class="chip">to play</span>' : ''}</div>
<div class="p-followers" aria-label="${s.followers} followers left" title="${s.followers} of 7 followers in supply">${followers}</div>
<div class="p-points" title="Points by feature"><span>City ${p.city}</span><span>Road ${p.road}</span><span>Monastery ${p.monastery}</span><span>Farm ${p.farm}</span></div>
</li>`;
      })
      .join('');
    patch(playersBox, `<h2>Players</h2><ol class="players">${rows}</ol>`);
  }

  function renderLog(): void {
    const v = view!;
    logEl.innerHTML =
      log
        .slice(0, 120)
        .map(
          (e) =>
            `<li class="log-${e.kind}"${e.seat !== null ? ` style="--pc:${PLAYER_COLORS[e.seat]}"` : ''}><span class="log-dot" aria-hidden="true">${e.seat !== null ? PLAYER_GLYPHS[e.seat] : '•'}</span><span>${esc(e.text)}${e.detail.length ? ` <span class="muted">· ${esc(e.detail.join(' · '))}</span>` : ''}</span></li>`,
        )
        .join('') || `<li class="muted">${v.status === 'waiting' ? 'Nothing yet.' : 'Moves and scorings appear here.'}</li>`;
  }

  function renderBanner(): void {
    const v = view!;
    if (v.status === 'waiting') {
      banner.hidden = false;
      const link = gameLink(v.gameId);
      patch(
        banner,
        `<p><strong>Waiting for players.</strong> Send this link to a friend:</p><div class="row"><input class="invite-input" readonly value="${esc(link)}" aria-label="Invite link" data-focus-key="invite-input"><button class="btn primary small" data-action="invite" data-focus-key="banner-invite">Copy</button></div>${!held && v.seats.some((s) => s.kind === 'person' && !s.name) ? '<button class="btn small" data-action="join" data-focus-key="banner-join">Take a seat</button>' : ''}`,
      );
    } else if (v.you === null && v.status === 'playing') {
      banner.hidden = false;
      patch(banner, `<p>${ICONS.eye} Watching this game${v.seats.some((s) => s.kind === 'person' && !s.name) ? '' : ''}.</p>`);
    } else {
      banner.hidden = true;
    }
  }

  /** Every half second: the turn clock and the bot's thinking time. */
  function tick(): void {
    const v = view;
    if (!v) return;
    const clockEl = turnBox.querySelector<HTMLElement>('[data-clock]');
    if (clockEl) {
      const remaining = v.clock.deadline !== null ? v.clock.deadline - Date.now() : null;
      clockEl.innerHTML = `${ICONS.clock} ${remaining !== null ? `${fmtDuration(remaining)} left` : fmtDuration(performance.now() - turnStarted)}`;
      clockEl.classList.toggle('low', remaining !== null && remaining < 15000);
    }
    const th = turnBox.querySelector<HTMLElement>('[data-thinking]');
    if (th)
      th.innerHTML =
        v.botThinking && botSince !== null
          ? `${ICONS.bot} bot is thinking… ${Math.round(performance.now() - botSince)} ms`
          : v.status === 'playing' && v.seats[v.currentSeat ?? 0]?.kind === 'bot'
            ? `${ICONS.bot} bot to move`
            : '';
  }
  const ticker = window.setInterval(tick, 250);

  // ---- dialogs ----

  function showJoin(): void {
    const v = view!;
    overlay.hidden = false;
    overlay.innerHTML = `<form class="dialog" role="dialog" aria-modal="true" aria-labelledby="join-title" data-form="join">
<h2 id="join-title">Join this game</h2>
<p>${v.seats.map((s) => `<span class="seat-pill" style="--pc:${PLAYER_COLORS[s.seat]}">${PLAYER_GLYPHS[s.seat]} ${esc(s.name ?? (s.kind === 'bot' ? `${s.level} bot` : 'open seat'))}</span>`).join(' ')}</p>
<label class="field">Your name <input name="name" required maxlength="32" autocomplete="nickname" value="${esc(savedName())}"></label>
<div class="row"><button class="btn primary" type="submit">Take a seat</button><button class="btn" type="button" data-action="watch">Just watch</button></div></form>`;
    overlay.querySelector<HTMLInputElement>('input[name=name]')?.focus();
  }

  async function join(name: string): Promise<void> {
    try {
      const r = await api.join(gameId, name);
      saveName(name);
      held = {
        gameId,
        seat: r.seat,
        token: r.token,
        name,
        at: Date.now(),
      };
      heldSeats.put(held);
      overlay.hidden = true;
      socket.close();
      socket = connect();
    } catch (e) {
      toast(e instanceof ApiError ? e.message : 'Could not join the game.', 'error', 5000);
    }
  }

  function showEnd(): void {
    const v = view!;
    const order = [...v.seats].sort((a, b) => b.score - a.score);
    const best = order[0]?.score ?? 0;
    const winners = order.filter((s) => s.score === best);
    const rows = order
      .map((s, i) => {
        const p = s.points;
        const rank = v.seats.filter((o) => o.score > s.score).length + 1;
        return `<tr class="${s.score === best ? 'winner' : ''}" style="--pc:${PLAYER_COLORS[s.seat]}"><td class="rank">${rank}</td><th scope="row"><span class="swatch" aria-hidden="true">${PLAYER_GLYPHS[s.seat]}</span> ${esc(seatName(v.seats, s.seat))}${v.you === s.seat ? ' <em>(you)</em>' : ''}</th><td>${p.road}</td><td>${p.city}</td><td>${p.monastery}</td><td>${p.farm}</td><td class="total">${s.score}</td>${i === 0 ? '' : ''}</tr>`;
      })
      .join('');
    const maxScore = Math.max(1, ...v.seats.map((s) => s.score));
    const bars = order
      .map((s) => {
        const p = s.points;
        const seg = (n: number, cls: string) => (n > 0 ? `<span class="seg ${cls}" style="flex:${n}" title="${cls} ${n}"></span>` : '');
        return `<div class="bar-row" style="--pc:${PLAYER_COLORS[s.seat]}"><span class="bar-name"><span class="log-dot" aria-hidden="true">${PLAYER_GLYPHS[s.seat]}</span>${esc(seatName(v.seats, s.seat))}</span><span class="bar" style="width:${(s.score / maxScore) * 100}%">${seg(p.road, 'road')}${seg(p.city, 'city')}${seg(p.monastery, 'monastery')}${seg(p.farm, 'farm')}</span></div>`;
      })
      .join('');
    const title =
      winners.length > 1
        ? `${winners.map((w) => seatName(v.seats, w.seat)).join(' and ')} share the win!`
        : v.you !== null && winners[0]?.seat === v.you
          ? 'You win!'
          : `${seatName(v.seats, winners[0]?.seat ?? 0)} wins!`;
    overlay.hidden = false;
    overlay.innerHTML = `<div class="dialog end" role="dialog" aria-modal="true" aria-labelledby="end-title">
<h2 id="end-title">${ICONS.trophy} ${esc(title)}</h2>
<table class="scores"><thead><tr><th>#</th><th>Player</th><th data-short="Road">Roads</th><th data-short="City">Cities</th><th data-short="Mon.">Monasteries</th><th data-short="Farm">Farms</th><th data-short="Σ">Total</th></tr></thead><tbody>${rows}</tbody></table>
<div class="score-bars" aria-hidden="true">${bars}<div class="legend"><span class="seg road"></span>roads <span class="seg city"></span>cities <span class="seg monastery"></span>monasteries <span class="seg farm"></span>farms</div></div>
<div class="row">${held ? `<button class="btn primary" data-action="rematch">${v.rematch ? 'Join the rematch' : 'Rematch'}</button>` : ''}<a class="btn" href="#/replay/${encodeURIComponent(v.gameId)}">Watch the replay</a><button class="btn" data-action="close-overlay">See the board</button><a class="btn" href="#/">Lobby</a></div></div>`;
    overlay.querySelector<HTMLElement>('.btn')?.focus();
  }

  async function rematch(): Promise<void> {
    const v = view;
    if (!v || !held) return;
    try {
      const r = await api.rematch(v.gameId, held.token);
      heldSeats.put({ ...held, gameId: r.gameId, seat: r.seat, token: r.token, at: Date.now() });
      location.hash = `#/g/${encodeURIComponent(r.gameId)}`;
    } catch (e) {
      toast(e instanceof ApiError ? e.message : 'Could not start a rematch.', 'error', 5000);
    }
  }

  // ---- input ----

  const onClick = (e: MouseEvent) => {
    const t = (e.target as HTMLElement).closest<HTMLElement>('[data-action]');
    if (!t || !gameEl.contains(t)) return;
    const a = t.dataset.action;
    switch (a) {
      case 'zoom-in':
        return board.zoomAt(1.25);
      case 'zoom-out':
        return board.zoomAt(0.8);
      case 'fit':
        return board.fit();
      case 'rot-cw':
        return rotate(1);
      case 'rot-ccw':
        return rotate(-1);
      case 'confirm':
        return confirm();
      case 'takeback':
        return takeBack();
      case 'invite':
        void copyText(gameLink(gameId)).then((ok) => toast(ok ? 'Invite link copied.' : gameLink(gameId)));
        return;
      case 'show-end':
        endDismissed = false;
        return showEnd();
      case 'close-overlay':
        endDismissed = true;
        overlay.hidden = true;
        return;
      case 'rematch':
        void rematch();
        return;
      case 'join':
        joinDismissed = false;
        return showJoin();
      case 'watch':
        joinDismissed = true;
        overlay.hidden = true;
        return;
    }
  };
  const onChange = (e: Event) => {
    const t = e.target as HTMLInputElement;
    if (t.dataset.spotChoice !== undefined && sel) {
      sel.meeple = t.dataset.spotChoice || null;
      render();
    }
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
      if (e.key === 'Escape' && view?.status === 'finished') {
        endDismissed = true;
        overlay.hidden = true;
      }
      return;
    }
    const k = e.key;
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
      const spots = spotsFor(sel);
      const i = Number(k);
      if (i === 0) chooseSpot(null);
      else if (spots[i - 1]) {
        sel.meeple = spots[i - 1];
        render();
      }
    } else if ((k === 'f' || k === 'F' || k === '+' || k === '=' || k === '-') && document.activeElement !== board.svg) {
      if (k === 'f' || k === 'F') board.fit();
      else board.zoomAt(k === '-' ? 0.8 : 1.25);
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
      return view;
    },
    get selection() {
      return sel;
    },
    dropConnection: () => socket.simulateDrop(),
    legal: (): Placement[] => view?.legal ?? [],
  };

  return () => {
    destroyed = true;
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
