// #/players/<id>: a player's page. The rating over time (a chart), what the analysis of their
// games found (points lost per move, the most common kind of mistake), results by number of
// players and by options, and recent games with replay and analysis links.

import { type Profile, type ProfileGame, type RatingChange, type Results, type ShownRating, playerApi } from './player-api.ts';
import { mountPlayerBar } from './player-bar.ts';
import { HttpError } from '../api.ts';
import { PLAYER_COLORS, PLAYER_GLYPHS } from '../art.ts';
import { lineChart } from '../charts.ts';
import { esc } from '../dom.ts';
import {
  RATING_MOVES_NOTE,
  lostPerMoveText,
  meanPlaceText,
  mistakeWords,
  optionLabel,
  ordinal,
  profileHref,
  ratingChangeBadge,
  ratingChartData,
  ratingText,
  shortDate,
  winsText,
} from './player-text.ts';
import { loadRatings, shownRating } from './rating-book.ts';
import { recordedName, rulesText } from '../text.ts';

export function mountProfile(root: HTMLElement, playerId: string): () => void {
  root.innerHTML = `<div class="page profile-page">
<header class="page-head"><a class="btn small" href="#/">← Lobby</a><h1>Player</h1><nav class="player-bar" aria-label="Players"></nav></header>
<main class="page-body"><p class="muted">Loading…</p></main></div>`;
  const unbar = mountPlayerBar(root.querySelector<HTMLElement>('.player-bar')!);
  void load(root, playerId);
  return unbar;
}

async function load(root: HTMLElement, playerId: string): Promise<void> {
  const body = root.querySelector<HTMLElement>('.page-body')!;
  const title = root.querySelector<HTMLElement>('h1')!;
  // The rating and its history are the ratings' routes: a profile without them still shows.
  const [profile, history] = await Promise.all([playerApi.profile(playerId).catch((e: unknown) => e), playerApi.ratingHistory(playerId).catch((): RatingChange[] => []), loadRatings([playerId])]);
  if (!body.isConnected) return;
  if (profile instanceof Error) {
    body.innerHTML = `<p>${profile instanceof HttpError && profile.status === 404 ? 'No such player: the link may be wrong, or the player was deleted.' : 'The profile could not be loaded.'}</p>`;
    return;
  }
  const p = profile as Profile;
  title.textContent = p.name;
  document.title = `${p.name} · Tessera`;
  // The chart is drawn at the card's width in CSS px, so its text is the page's size.
  const chartWidth = Math.max(280, Math.min(800, body.clientWidth - 40));
  body.innerHTML = [ratingSection(p, shownRating(playerId), history, chartWidth), analysisSection(p), resultsSection(p), recentSection(p, history)].join('');
}

function ratingSection(p: Profile, shown: ShownRating | null, history: RatingChange[], width: number): string {
  const data = ratingChartData(history);
  const chart = data
    ? `<div class="chart">${lineChart({ series: [{ name: 'rating', color: '#2f6f4e', values: data.values, area: true }], fitY: true, xLabels: [data.from, data.to], width, height: 200, label: `${p.name}'s rating over ${history.length} rated games, from ${ratingText(data.values[0])} to ${ratingText(data.values.at(-1)!)}` })}</div>`
    : '';
  const provisional = shown?.provisional ? '<p class="muted small">Provisional: a rating settles over the first 5 rated games.</p>' : '';
  const summary = shown
    ? `<p class="big-number" data-rating="${shown.rating}">${ratingText(shown.rating)} <span class="muted small">after ${shown.games} rated ${shown.games === 1 ? 'game' : 'games'}</span></p>${provisional}`
    : '<p class="muted">No rated game yet.</p>';
  return `<section class="card" aria-labelledby="rating-title"><h2 id="rating-title">Rating</h2>${summary}${chart}<p class="muted small"><a href="#/leaderboard">Leaderboard</a></p></section>`;
}

function analysisSection(p: Profile): string {
  const a = p.analysis;
  const kinds = Object.entries(a.byKind)
    .filter(([, n]) => n > 0)
    .sort((x, y) => y[1] - x[1])
    .map(([kind, n]) => `<li>${esc(mistakeWords(kind))}: ${n}</li>`)
    .join('');
  const mistakes = a.mistakes
    ? `<dt>Mistakes (moves that lost 3 points or more)</dt><dd>${a.mistakes} in ${a.games} analysed ${a.games === 1 ? 'game' : 'games'}; the most common: <strong>${esc(mistakeWords(a.commonMistake ?? ''))}</strong><ul class="kinds">${kinds}</ul></dd>`
    : '';
  return `<section class="card" aria-labelledby="analysis-title"><h2 id="analysis-title">What the analysis found</h2>
<dl class="facts"><dt>Points lost per move, against the expert bot’s choice</dt><dd>${esc(lostPerMoveText(a.pointsLostPerMove, a.moves))}</dd>${mistakes}</dl></section>`;
}

interface ResultRow extends Results {
  label: string;
}

function resultsTable(caption: string, rows: ResultRow[]): string {
  if (!rows.length) return '';
  const body = rows
    .map((r) => `<tr><th scope="row">${esc(r.label)}</th><td class="num">${r.games}</td><td class="num">${esc(winsText(r.wins, r.games))}</td><td class="num">${meanPlaceText(r.meanPlace)}</td></tr>`)
    .join('');
  return `<div class="table-wrap"><table class="board-table"><caption>${esc(caption)}</caption><thead><tr><th scope="col">Games of</th><th scope="col" class="num">Games</th><th scope="col" class="num">Wins</th><th scope="col" class="num">Mean place</th></tr></thead><tbody>${body}</tbody></table></div>`;
}

function resultsSection(p: Profile): string {
  const share = p.games ? Math.round((100 * p.wins) / p.games) : 0;
  const overall = p.games
    ? `<p>${p.games} ${p.games === 1 ? 'game' : 'games'}${p.games >= p.window ? ` (the latest ${p.window})` : ''}, ${p.wins} won (${share} %), mean place ${meanPlaceText(p.meanPlace)}.</p>`
    : '';
  const tables =
    resultsTable(
      'By number of players',
      p.byPlayers.map((r) => ({ ...r, label: `${r.players}\u00a0players` })),
    ) +
    resultsTable(
      'By options',
      p.byOption.map((r) => ({ ...r, label: optionLabel(r.option, r.value) })),
    );
  return `<section class="card" aria-labelledby="results-title"><h2 id="results-title">Results</h2>${overall}${tables || '<p class="muted">No finished game yet.</p>'}</section>`;
}

function recentSection(p: Profile, history: RatingChange[]): string {
  const byGame = new Map(history.map((c) => [c.gameId, c]));
  const items = p.recent.map((g) => gameItem(g, p.id, byGame.get(g.id))).join('');
  const note = p.recent.some((g) => byGame.has(g.id)) ? `<p class="muted small rating-note">Beside a rated game, the change it made to the rating. ${RATING_MOVES_NOTE}</p>` : '';
  return `<section class="card" aria-labelledby="recent-title"><h2 id="recent-title">Recent games</h2>${note}<ul class="game-list">${items || '<li class="muted">No finished game yet.</li>'}</ul></section>`;
}

function gameItem(g: ProfileGame, self: string, change: RatingChange | undefined): string {
  const order = [...g.players].sort((a, b) => b.score - a.score);
  const pills = order.map((o) => seatPill(o, self)).join(' ');
  const id = encodeURIComponent(g.id);
  const analysis = `<a class="btn small ghost" href="#/replay/${id}?analyse">${g.analysed ? 'Analysis' : 'Analyse'}</a>`;
  const about = [`${ordinal(g.place)} of ${g.players.length}`, ...(g.rated ? ['rated'] : []), ...(g.abandoned ? ['abandoned'] : []), rulesText(g.rules), shortDate(g.finishedAt)];
  const moved = change ? `${ratingChangeBadge(change.before, change.after)} <span class="muted small">(${ratingText(change.before)} → ${ratingText(change.after)})</span>` : '';
  return `<li class="game-item"><div>${pills}${moved}<div class="muted small">${esc(about.join(' · '))}</div></div><div class="row"><a class="btn small" href="#/replay/${id}">Replay</a>${analysis}</div></li>`;
}

/** A seat of a recent game: the other players' link to their own pages (as a 44 px target). */
function seatPill(o: ProfileGame['players'][number], self: string): string {
  const text = `${PLAYER_GLYPHS[o.seat]} ${esc(recordedName(o.name, o.seat, o))} <b class="pill-score">${o.score}</b>`;
  const style = `--pc:${PLAYER_COLORS[o.seat]}`;
  return o.playerId && o.playerId !== self
    ? `<a class="seat-pill player-pill" style="${style}" href="${profileHref(o.playerId)}">${text}</a>`
    : `<span class="seat-pill" style="${style}">${text}</span>`;
}
