// The lobby: create a game (1–4 opponents, 5 with Inns & Cathedrals, any mix of bot levels and
// open seats for people, the expansions and rule options, rated or not), open games to join, the
// player's games (on any device) and this browser's to resume or replay, and a game to watch by
// its link or id. The name field is the player's name.

import { playerApi } from './players/player-api.ts';
import { mountPlayerBar } from './players/player-bar.ts';
import { type GameOptions, HttpError, api, savedName, saveName, seats as heldSeats } from './api.ts';
import { type MyGame, mergeMyGames } from './players/my-games.ts';
import { guestMark } from './players/player-text.ts';
import { fillRatings, loadRatings, onRatings, seatRatingBadge } from './players/rating-book.ts';
import { claimName, currentPlayer, onSessionChange, type SessionState, sessionState } from './players/session.ts';
import { onWaitingChange } from './players/waiting-count.ts';
import type { SeatRequest } from './protocol.ts';
import { PLAYER_COLORS, PLAYER_GLYPHS, tileIcon } from './art.ts';
import { ensureTileDefs } from './defs.ts';
import { esc, toast } from './dom.ts';
import { EXPANSION_NAMES, paceText, recordedName, rulesText, seatLabel, seatName, timeLeftText } from './text.ts';
import { BOT_LEVELS, LEVEL_SUMMARY, MAX_NAME_LENGTH, type GameSummary } from './protocol.ts';
import { MAX_PLAYERS, MAX_SEATS } from '../../bot-engine/state.ts';
import type { ExpansionKey } from '../../bot-engine/game.ts';

/** Days per move a turn-based game may have (the server's MOVE_DAYS). */
const MOVE_DAYS = [1, 2, 3, 5, 7] as const;

const EXPANSIONS = Object.keys(EXPANSION_NAMES) as ExpansionKey[];
const EXPANSION_HINTS: Record<ExpansionKey, string> = {
  innsCathedrals: '18 more tiles, inns and cathedrals, a large follower each, up to 6 players',
  river: 'the game starts with 12 river tiles',
  abbot: 'gardens, and an abbot each for a monastery or a garden',
};

type Opp = 'open' | (typeof BOT_LEVELS)[number];

export function mountLobby(root: HTMLElement): () => void {
  ensureTileDefs();
  const opponents: Opp[] = ['greedy'];
  root.innerHTML = `
<div class="lobby">
  <nav class="player-bar lobby-player-bar" aria-label="Players"></nav>
  <header class="hero">
    <div class="hero-tiles" aria-hidden="true">${['C', 'R', 'D', 'V', 'B', 'L', 'N'].map((t, i) => tileIcon(t, (i * 90) % 360, 56)).join('')}</div>
    <h1><span class="brand-mark" aria-hidden="true"></span>Tessera</h1>
    <p class="tagline">The classic 72-tile game of roads, cities, monasteries and farms — against bots or friends. <a href="#/rules">How to play</a></p>
  </header>
  <main class="lobby-grid">
    <section class="card create" aria-labelledby="create-title">
      <h2 id="create-title">New game</h2>
      <form data-form="create">
        <label class="field name-field">Your name <input name="name" required maxlength="${MAX_NAME_LENGTH}" autocomplete="nickname" placeholder="e.g. Ada" value="${esc(savedName())}" aria-describedby="name-note"></label>
        <p class="field-note" id="name-note" aria-live="polite"></p>
        <fieldset class="seats"><legend>Table</legend><ol class="seat-list"></ol>
          <button type="button" class="btn small" data-action="add">+ Add opponent</button>
          <label class="field">Challenge players by name <input name="challenge" maxlength="200" autocomplete="off" placeholder="e.g. Ben, Cleo" aria-describedby="challenge-note"></label>
          <p class="field-note" id="challenge-note">Each gets a seat kept for them, and finds the game in their games on their next visit.</p>
          <label class="check"><input type="checkbox" name="listed"> List it in Open games: anyone may take an open seat (otherwise only people you send the link to)</label></fieldset>
        <fieldset class="rules"><legend>Rules</legend>
          <label class="check" data-choice="rated" hidden><input type="checkbox" name="rated"> Rated: the result moves everyone's rating. Every person at the table must be a player here (with a passkey when people play each other; a guest plays rated games against bots), and there are no hints: the rating measures you alone</label>
          <label class="check"><input type="checkbox" name="hints"> Hints: ask the expert bot for its move (games against bots only; the end screen counts them)</label>
          ${EXPANSIONS.map((k) => `<label class="check"><input type="checkbox" name="${k}"> ${EXPANSION_NAMES[k].replace(/^the /, 'The ')}: ${EXPANSION_HINTS[k]}</label>`).join('')}
          <label class="check"><input type="checkbox" name="tinyCity"> Small cities: a finished two-tile city scores 2 (1st/2nd edition)</label>
          <label class="field inline">Pace <select name="pace"><option value="">live: everyone at the table now</option>${MOVE_DAYS.map((d) => `<option value="${d}">turn-based: ${d} ${d === 1 ? 'day' : 'days'} a move</option>`).join('')}</select></label>
          <label class="field inline" data-choice="clock">Turn clock <select name="clock"><option value="">server default (none against bots only, 2 min with people)</option><option value="none">no clock</option><option value="60">1 minute a turn</option><option value="120">2 minutes a turn</option><option value="300">5 minutes a turn</option></select></label>
          <label class="field inline">Farmers <select name="farmers"><option value="3rd">3rd edition: 3 per finished city, per farm</option><option value="2nd">2nd edition: each city once per player</option><option value="1st">1st edition: most farmers per city get 4</option></select></label>
        </fieldset>
        <button class="btn primary big" type="submit">Create game</button>
      </form>
    </section>
    <div class="lobby-side">
    <section class="card open-games" aria-labelledby="open-title">
      <h2 id="open-title">Open games <button class="btn small ghost" data-action="refresh" aria-label="Refresh open games">↻</button></h2>
      <ul class="game-list" data-list="open"><li class="muted">Loading…</li></ul>
    </section>
    <section class="card my-games" aria-labelledby="mine-title">
      <h2 id="mine-title">Your games</h2>
      <ul class="game-list" data-list="mine"></ul>
    </section>
    <section class="card watch" aria-labelledby="watch-title">
      <h2 id="watch-title">Watch or replay</h2>
      <form data-form="watch" class="row">
        <input name="game" placeholder="Game link or id" aria-label="Game link or id" required>
        <button class="btn" type="submit" name="how" value="watch">Watch</button>
        <button class="btn ghost" type="submit" name="how" value="replay">Replay</button>
      </form>
      <p class="muted small">Anyone with a game's link can watch it live; finished games can be replayed move by move.</p>
      <h3 class="small">Recently finished</h3>
      <ul class="game-list" data-list="finished"><li class="muted">…</li></ul>
      <p><a href="/dashboard">Server dashboard →</a></p>
    </section>
    </div>
  </main>
</div>`;

  const seatList = root.querySelector<HTMLElement>('.seat-list')!;
  const openList = root.querySelector<HTMLElement>('[data-list=open]')!;
  const mineList = root.querySelector<HTMLElement>('[data-list=mine]')!;
  const nameInput = root.querySelector<HTMLInputElement>('input[name=name]')!;
  const nameNote = root.querySelector<HTMLElement>('#name-note')!;
  const unbar = mountPlayerBar(root.querySelector<HTMLElement>('.player-bar')!);
  let shownName = nameInput.value;
  let busy = false;
  /** The player's games from the server (any device): not offered again under Open games. */
  let playerGameIds: string[] = [];

  /** The name field follows the player until the person types in it. */
  function onSession(s: SessionState): void {
    // A rated game needs players; the first game makes this browser's.
    root.querySelector<HTMLElement>('[data-choice=rated]')!.hidden = s.kind !== 'player' && s.kind !== 'none';
    if (s.kind === 'player' && nameInput.value === shownName) nameInput.value = shownName = s.player.name;
    if (s.kind !== 'loading') void loadMine();
  }

  function showNameNote(text: string, problem: boolean): void {
    nameNote.textContent = text;
    nameNote.classList.toggle('error', problem);
    if (problem) nameInput.setAttribute('aria-invalid', 'true');
    else nameInput.removeAttribute('aria-invalid');
  }

  /** Makes the typed name the player's; false, said next to the field, when it cannot be. */
  async function claimTypedName(name: string): Promise<boolean> {
    const problem = await claimName(name);
    showNameNote(problem ?? '', problem !== null);
    return problem === null;
  }

  function renderSeats(): void {
    const you = `<li class="seat-row" style="--pc:${PLAYER_COLORS[0]}"><span class="swatch">${PLAYER_GLYPHS[0]}</span><span>You</span></li>`;
    seatList.innerHTML =
      you +
      opponents
        .map(
          (o, i) => `<li class="seat-row" style="--pc:${PLAYER_COLORS[i + 1]}"><span class="swatch">${PLAYER_GLYPHS[i + 1]}</span>
<select data-opp="${i}" aria-label="Seat ${i + 2}">${BOT_LEVELS.map((l) => `<option value="${l}" ${o === l ? 'selected' : ''}>Bot: ${esc(`${l} — ${LEVEL_SUMMARY[l]}`)}</option>`).join('')}<option value="open" ${o === 'open' ? 'selected' : ''}>Open seat for a person (invite link)</option></select>
${opponents.length > 1 ? `<button type="button" class="btn icon small" data-action="remove" data-i="${i}" aria-label="Remove seat ${i + 2}">×</button>` : ''}</li>`,
        )
        .join('');
    root.querySelector<HTMLButtonElement>('[data-action=add]')!.disabled = opponents.length >= maxOpponents();
  }

  /** Inns & Cathedrals seats a sixth player; turning it off takes the sixth seat away. */
  function maxOpponents(): number {
    return (root.querySelector<HTMLInputElement>('input[name=innsCathedrals]')?.checked ? MAX_SEATS : MAX_PLAYERS) - 1;
  }

  function seatsText(g: GameSummary): string {
    // The ratings beside the names come by id: badges drawn now, completed when they arrive.
    void loadRatings(g.seats.flatMap((s) => (s.playerId ? [s.playerId] : [])));
    return g.seats
      .map(
        (s) =>
          `<span class="seat-pill" style="--pc:${PLAYER_COLORS[s.seat]}">${PLAYER_GLYPHS[s.seat]} ${esc(s.kind === 'bot' ? seatLabel(g.seats, s.seat) : (s.name ?? 'open'))}${seatRatingBadge(s.playerId)}${guestMark(s)}</span>`,
      )
      .join(' ');
  }

  async function loadOpen(): Promise<void> {
    try {
      const { games } = await api.openGames(20);
      const mine = new Set([...heldSeats.list().map((s) => s.gameId), ...playerGameIds]);
      const list = games.filter((g) => !mine.has(g.id));
      openList.innerHTML = list.length
        ? list
            .map(
              (g) =>
                `<li class="game-item"><div>${seatsText(g)}<div class="muted small">${g.rated ? 'rated · ' : ''}${g.clock.pace ? `${esc(paceText(g.clock))} · ` : ''}${esc(rulesText(g.rules))} · ${timeAgo(g.createdAt)}</div></div><button class="btn small primary" data-action="join" data-id="${esc(g.id)}">Join</button></li>`,
            )
            .join('')
        : '<li class="muted">No open games right now. Create one and share its link.</li>';
    } catch {
      openList.innerHTML = '<li class="muted">Could not load the open games.</li>';
    }
  }

  async function loadFinished(): Promise<void> {
    const el = root.querySelector<HTMLElement>('[data-list=finished]')!;
    try {
      const { games } = await api.finishedGames(6);
      el.innerHTML = games.length
        ? games
            .map(
              (g) =>
                `<li class="game-item"><div>${[...g.players]
                  .sort((a, b) => b.score - a.score)
                  .map(
                    (p) => `<span class="seat-pill" style="--pc:${PLAYER_COLORS[p.seat]}">${PLAYER_GLYPHS[p.seat]} ${esc(recordedName(p.name, p.seat, p))} <b class="pill-score">${p.score}</b></span>`,
                  )
                  .join(
                    ' ',
                  )}<div class="muted small">${g.abandoned ? 'abandoned · ' : ''}${esc(rulesText(g.rules))} · ${timeAgo(g.finishedAt)}</div></div><a class="btn small" href="#/replay/${encodeURIComponent(g.id)}">Replay</a></li>`,
            )
            .join('')
        : '<li class="muted">No finished game yet.</li>';
    } catch {
      el.innerHTML = '<li class="muted">Not available on this server.</li>';
    }
  }

  async function loadMine(): Promise<void> {
    const playerGames = currentPlayer() ? await playerApi.myGames().catch(() => []) : [];
    playerGameIds = playerGames.map((g) => g.gameId);
    const mine = mergeMyGames(playerGames, heldSeats.list());
    if (!mine.length) {
      mineList.innerHTML = '<li class="muted">Games you play appear here, to resume after a refresh, on another day or on another device.</li>';
      return;
    }
    const results = await Promise.all(
      mine.map((m) =>
        api.game(m.gameId).then(
          (g) => ({ m, g }),
          () => ({ m, g: null }),
        ),
      ),
    );
    mineList.innerHTML = results.map(({ m, g }) => myGameItem(m, g)).join('');
  }

  function myGameItem(m: MyGame, g: GameSummary | null): string {
    const timeLeft = m.deadline ? ` · ${timeLeftText(m.deadline - Date.now())} left` : '';
    const status = g
      ? g.status === 'finished'
        ? 'finished'
        : m.invited
          ? '<strong>challenged: a seat is kept for you</strong>'
          : g.status === 'waiting'
            ? 'waiting for players'
            : g.currentSeat === m.seat
              ? `<strong>your turn</strong>${timeLeft}`
              : g.clock.pace && g.currentSeat !== null
                ? `${esc(seatName(g.seats, g.currentSeat))}’s turn${timeLeft}`
                : 'playing'
      : 'gone from the server';
    const id = encodeURIComponent(m.gameId);
    const action = !g
      ? `<button class="btn small ghost" data-action="forget" data-id="${esc(m.gameId)}">Forget</button>`
      : g.status === 'finished'
        ? `<a class="btn small" href="#/replay/${id}">Replay</a> <a class="btn small ghost" href="#/g/${id}">Scores</a>`
        : m.invited
          ? `<button class="btn small primary" data-action="take-kept" data-id="${esc(m.gameId)}" data-seat="${m.seat}">Take your seat</button>`
          : `<a class="btn small primary" href="#/g/${id}">Resume</a>`;
    const pace = g?.clock.pace ? ` · ${esc(paceText(g.clock))}` : '';
    return `<li class="game-item"><div>${g ? seatsText(g) : `<code>${esc(m.gameId)}</code>`}<div class="muted small">${m.invited ? 'for you' : `as ${esc(m.name)}`}${pace} · ${status}${g?.tilesLeft !== undefined && g.status === 'playing' ? ` · ${g.tilesLeft} tiles left` : ''}</div></div><div>${action}</div></li>`;
  }

  async function create(form: HTMLFormElement): Promise<void> {
    if (busy) return;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    if (!name || !(await claimTypedName(name))) return nameInput.focus();
    saveName(name);
    const challenged = String(data.get('challenge') ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    const setup: SeatRequest[] = [
      { kind: 'person' },
      ...challenged.map((player): SeatRequest => ({ kind: 'person', player })),
      ...opponents.map((o): SeatRequest => (o === 'open' ? { kind: 'person' } : { kind: 'bot', level: o })),
    ];
    const rules = {
      tinyCity: data.get('tinyCity') === 'on',
      farmers: String(data.get('farmers') ?? '3rd') as '1st' | '2nd' | '3rd',
      ...Object.fromEntries(EXPANSIONS.filter((k) => data.get(k) === 'on').map((k) => [k, true])),
    };
    const moveDays = MOVE_DAYS.find((d) => String(d) === data.get('pace'));
    const pace = moveDays ? { kind: 'turnBased' as const, moveDays } : undefined;
    // A turn-based game has days per move, not a turn clock.
    const clockChoice = pace ? '' : String(data.get('clock') ?? '');
    const clock = clockChoice === '' ? undefined : { turnSeconds: clockChoice === 'none' ? null : Number(clockChoice) };
    busy = true;
    try {
      const againstBots = opponents.every((o) => o !== 'open');
      const options: GameOptions = { rules, ...(clock ? { clock } : {}), ...(pace ? { pace } : {}) };
      if (data.get('listed') === 'on') options.listed = true;
      const rated = data.get('rated') === 'on';
      if (rated) options.rated = true;
      else if (againstBots && data.get('hints') === 'on') options.hints = true;
      const g = await api.createGame(setup, options);
      const joined = await api.join(g.id, name, 0);
      heldSeats.put({ gameId: g.id, seat: joined.seat, token: joined.token, name, at: Date.now() });
      location.hash = `#/g/${encodeURIComponent(g.id)}`;
    } catch (e) {
      toast(e instanceof HttpError ? `Could not create the game: ${e.message}` : 'Could not reach the server.', 'error', 6000);
    } finally {
      busy = false;
    }
  }

  async function join(id: string, seat?: number): Promise<void> {
    const name = nameInput.value.trim();
    if (!name) {
      nameInput.focus();
      toast('Type your name first.');
      return;
    }
    if (!(await claimTypedName(name))) return nameInput.focus();
    saveName(name);
    try {
      const joined = await api.join(id, name, seat);
      heldSeats.put({ gameId: id, seat: joined.seat, token: joined.token, name, at: Date.now() });
      location.hash = `#/g/${encodeURIComponent(id)}`;
    } catch (e) {
      toast(e instanceof HttpError ? e.message : 'Could not join.', 'error', 5000);
      void loadOpen();
    }
  }

  const onClick = (e: MouseEvent) => {
    const t = (e.target as HTMLElement).closest<HTMLElement>('[data-action]');
    if (!t) return;
    const a = t.dataset.action;
    if (a === 'add' && opponents.length < maxOpponents()) {
      opponents.push('open');
      renderSeats();
    } else if (a === 'remove') {
      opponents.splice(Number(t.dataset.i), 1);
      renderSeats();
    } else if (a === 'refresh') void loadOpen();
    else if (a === 'join') void join(t.dataset.id!);
    else if (a === 'take-kept') void join(t.dataset.id!, Number(t.dataset.seat));
    else if (a === 'forget') {
      heldSeats.forget(t.dataset.id!);
      void loadMine();
    }
  };
  const onChange = (e: Event) => {
    const t = e.target as HTMLSelectElement;
    // A rename says at once whether the name is free; a player is made only by playing.
    if (t === (nameInput as unknown) && t.value.trim() && currentPlayer()) void claimTypedName(t.value.trim());
    if (t.name === 'rated') syncRated();
    if (t.name === 'pace') syncPace();
    if (t.dataset.opp !== undefined) opponents[Number(t.dataset.opp)] = t.value as Opp;
    if (t.name === 'innsCathedrals') {
      opponents.length = Math.min(opponents.length, maxOpponents());
      renderSeats();
    }
  };
  const onSubmit = (e: SubmitEvent) => {
    const f = e.target as HTMLFormElement;
    e.preventDefault();
    if (f.dataset.form === 'create') void create(f);
    if (f.dataset.form === 'watch') {
      const raw = String(new FormData(f).get('game') ?? '').trim();
      const id = raw.match(/(?:#\/(?:g|replay)\/|[?&]game=)([^/?&#]+)/)?.[1] ?? raw;
      const how = (e.submitter as HTMLButtonElement | null)?.value === 'replay' ? 'replay' : 'g';
      if (id) location.hash = `#/${how}/${id}`;
    }
  };
  root.addEventListener('click', onClick);
  root.addEventListener('change', onChange);
  root.addEventListener('submit', onSubmit);
  /** The field stops at the longest name the server takes: said as the person reaches it. */
  const onNameInput = () => {
    const left = MAX_NAME_LENGTH - nameInput.value.length;
    if (left <= 4)
      showNameNote(left > 0 ? `${left} more ${left === 1 ? 'character' : 'characters'} at most: a name has up to ${MAX_NAME_LENGTH}.` : `A name has up to ${MAX_NAME_LENGTH} characters.`, false);
    else if (nameNote.textContent && !nameNote.classList.contains('error')) showNameNote('', false);
  };
  nameInput.addEventListener('input', onNameInput);
  /** A turn-based game has days per move: the turn clock is hidden while one is chosen. */
  function syncPace(): void {
    const turnBased = root.querySelector<HTMLSelectElement>('select[name=pace]')!.value !== '';
    root.querySelector<HTMLElement>('[data-choice=clock]')!.hidden = turnBased;
  }

  /** A rated game has no hints: the choice is taken away while Rated is ticked. */
  function syncRated(): void {
    const rated = root.querySelector<HTMLInputElement>('input[name=rated]')!.checked;
    const hints = root.querySelector<HTMLInputElement>('input[name=hints]')!;
    hints.disabled = rated;
    if (rated) hints.checked = false;
  }

  renderSeats();
  void loadOpen();
  void loadFinished();
  const unlisten = onSessionChange(onSession);
  const unratings = onRatings(() => fillRatings(root));
  // A push, or a move seen elsewhere, changed whose turn it is: "Your games" follows the badge.
  const unwaiting = onWaitingChange(() => void loadMine());
  onSession(sessionState());
  if (sessionState().kind === 'loading') void loadMine();
  const timer = window.setInterval(() => void loadOpen(), 5000);
  return () => {
    unbar();
    unlisten();
    unratings();
    unwaiting();
    clearInterval(timer);
    root.removeEventListener('click', onClick);
    root.removeEventListener('change', onChange);
    root.removeEventListener('submit', onSubmit);
  };
}

function timeAgo(iso?: string): string {
  if (!iso) return '';
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ago`;
}
