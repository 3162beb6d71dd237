// #/leaderboard: bot levels and people by rating, a page at a time. People are listed once their
// rating is settled, measured against several opponents and recent (the server's `requires`, said
// on the page), so a lucky first game or one friend's gifts do not read as a measure.

import { type Leaderboard, type LeaderboardEntry, playerApi } from './player-api.ts';
import { mountPlayerBar } from './player-bar.ts';
import { esc } from '../dom.ts';
import { playerName, ratingText } from './player-text.ts';
import { currentPlayer } from './session.ts';

/** Players a page. */
const PAGE = 50;

export function mountLeaderboard(root: HTMLElement): () => void {
  root.innerHTML = `<div class="page leaderboard-page">
<header class="page-head"><a class="btn small" href="#/">← Lobby</a><h1>Leaderboard</h1><nav class="player-bar" aria-label="Players"></nav></header>
<main class="page-body">
<p class="muted">Ratings from rated games of 2 to 6 players. Bots are rated players too: each level has one rating to aim for.
<span class="rating-note">A rating marked <span class="rating">?</span> is provisional: too few rated games yet.</span>
<span class="requires"></span></p>
<div class="table-wrap"><table class="board-table"><caption class="sr-only">Players by rating</caption>
<thead><tr><th scope="col" class="num">#</th><th scope="col">Player</th><th scope="col" class="num">Rating</th><th scope="col" class="num">Games</th></tr></thead><tbody><tr><td colspan="4" class="muted">Loading…</td></tr></tbody></table></div>
<div class="row"><button class="btn" data-action="more" hidden>More players</button></div></main></div>`;
  const tbody = root.querySelector<HTMLElement>('tbody')!;
  const more = root.querySelector<HTMLButtonElement>('[data-action=more]')!;
  const unbar = mountPlayerBar(root.querySelector<HTMLElement>('.player-bar')!);
  const shown: LeaderboardEntry[] = [];

  async function load(): Promise<void> {
    more.disabled = true;
    try {
      const { players: page, requires } = await playerApi.leaderboard(shown.length, PAGE);
      root.querySelector<HTMLElement>('.requires')!.textContent = requiresText(requires);
      shown.push(...page);
      tbody.innerHTML = shown.length ? shown.map((p) => row(p, currentPlayer()?.id ?? null)).join('') : '<tr><td colspan="4" class="muted">No rated game has been played yet.</td></tr>';
      // A full page may have more after it.
      more.hidden = page.length < PAGE;
    } catch {
      tbody.innerHTML = '<tr><td colspan="4" class="muted">The leaderboard is not available on this server.</td></tr>';
    } finally {
      more.disabled = false;
    }
  }

  const onClick = (e: MouseEvent) => {
    if ((e.target as HTMLElement).closest('[data-action=more]')) void load();
  };
  root.addEventListener('click', onClick);
  void load();
  return () => {
    unbar();
    root.removeEventListener('click', onClick);
  };
}

/** What a person needs to be listed, as the server says it. */
export function requiresText(r: Leaderboard['requires']): string {
  return `A person is listed after ${r.games} rated games against at least ${r.opponents} different opponents, with a rated game in the last ${r.activeDays} days; bots are listed once rated.`;
}

function row(p: LeaderboardEntry, me: string | null): string {
  // The server names a level "expert bot": a tag would say it twice.
  const kind = p.bot && !/\bbot$/i.test(p.name) ? ' <span class="tag">bot</span>' : '';
  const you = p.playerId === me ? ' <em>(you)</em>' : '';
  const rating = `${ratingText(p.rating)}${p.provisional ? '<span class="provisional" title="provisional: too few rated games yet">?</span>' : ''}`;
  return `<tr class="${p.playerId === me ? 'me' : ''}${p.bot ? ' bot' : ''}"><td class="num">${p.place}</td><th scope="row">${playerName(p.name, p.playerId)}${kind}${you}</th><td class="num">${rating}</td><td class="num">${esc(p.games)}</td></tr>`;
}
