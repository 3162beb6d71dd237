// Words and small markup for players: a rating beside a name, a name that links to its profile,
// places, results and the analysis figures of a profile, and the rating chart's data. No DOM:
// unit-tested in test/client-players.test.ts.

import type { MistakeKind, RatingChange } from './player-api.ts';
// charts.ts's escaping, not dom.ts's: this module stays free of the DOM for its Node tests.
import { esc } from '../charts.ts';

/** Ratings are shown whole: the decimals are noise next to the model's uncertainty. */
export const ratingText = (rating: number): string => String(Math.round(rating));

/** The rating beside a name, or nothing when there is none; `provisional` marks it with "?". */
export function ratingBadge(rating: number | null, provisional = false): string {
  if (rating === null || !Number.isFinite(rating)) return '';
  const title = provisional ? 'Rating (provisional: too few rated games yet)' : 'Rating';
  return ` <span class="rating" title="${title}"><span class="sr-only">rating </span>${ratingText(rating)}${provisional ? '?' : ''}</span>`;
}

/** A rating's move in one game: "+12", "−8" (a true minus), "±0". */
export const ratingChangeText = (before: number, after: number): string => {
  const d = Math.round(after) - Math.round(before);
  return d > 0 ? `+${d}` : d < 0 ? `\u2212${-d}` : '\u00b10';
};

/** The change beside a rating, coloured by its sign. */
export function ratingChangeBadge(before: number, after: number): string {
  const d = Math.round(after) - Math.round(before);
  return ` <span class="rating-change ${d > 0 ? 'up' : d < 0 ? 'down' : 'same'}" title="rating change in this game: ${Math.round(before)} → ${Math.round(after)}">${ratingChangeText(before, after)}</span>`;
}

/** Why the shown rating moves as it does, in one line (docs/RATINGS.md: 1000 + 40·(μ − 3σ)). */
export const RATING_MOVES_NOTE =
  'The number shown is cautious: the estimated skill less three times its uncertainty. Each rated game makes the estimate surer, which lifts the number, so in the first games it can rise even after a 4th place of 6.';

/** The mark beside a seat held under a typed name (no player signed in behind it), else nothing. */
export const guestMark = (seat: { guest?: true }): string =>
  seat.guest ? ' <span class="guest" title="Not signed in: this name was typed for this game, no player account stands behind it">guest</span>' : '';

/** The player's page for an id, bots (`bot:expert`) included. */
export const profileHref = (playerId: string): string => `#/players/${encodeURIComponent(playerId)}`;

/** A name, escaped, linking to the player's page when the player is known. */
export const playerName = (name: string, playerId: string | null): string => (playerId ? `<a class="player-link" href="${profileHref(playerId)}">${esc(name)}</a>` : esc(name));

const ORDINALS = ['th', 'st', 'nd', 'rd'];

/** 1 → "1st", 2 → "2nd", 11 → "11th". */
export function ordinal(n: number): string {
  const tens = n % 100;
  return `${n}${tens >= 11 && tens <= 13 ? 'th' : (ORDINALS[n % 10] ?? 'th')}`;
}

/** A mean place to one decimal ("1.8"), or "–" without games. */
export const meanPlaceText = (place: number | null): string => (place === null || !Number.isFinite(place) ? '–' : place.toFixed(1));

/** "3 (43 %)": wins, and their share of the games (the games stand in the next column). */
export function winsText(wins: number, games: number): string {
  if (games === 0) return '–';
  return `${wins} (${Math.round((100 * wins) / games)} %)`;
}

/** Points lost per move with what it rests on: "1.4 points per move (over 212 moves)". */
export function lostPerMoveText(perMove: number | null, moves: number): string {
  if (perMove === null || moves === 0) return 'No analysed game yet: rated games are analysed on their own once they finish.';
  return `${perMove.toFixed(perMove < 10 ? 2 : 1)} points per move (over ${moves} analysed ${moves === 1 ? 'move' : 'moves'})`;
}

/** What the rating chart draws: the ratings in order and the dates at its two ends. */
export interface RatingChartData {
  values: number[];
  from: string;
  to: string;
}

/** The rating before the first rated game of the history, then after each one, oldest first
 * (sorted here: the order of the answer is not the chart's to trust). */
export function ratingChartData(changes: RatingChange[]): RatingChartData | null {
  if (!changes.length) return null;
  const ordered = [...changes].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return { values: [ordered[0].before, ...ordered.map((c) => c.after)], from: shortDate(ordered[0].at), to: shortDate(ordered.at(-1)!.at) };
}

/** "27 Nov 2026" in English whatever the browser's locale: the page is in English. */
export function shortDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** A kind of mistake (server/profiles/mistakes.ts) as a player reads it. */
export const MISTAKE_WORDS: Readonly<Record<MistakeKind, string>> = {
  abbot_timing: 'taking the abbot back at the wrong time',
  figure_withheld: 'keeping a figure back where placing one was better',
  figure_wasted: 'placing a figure where keeping it was better',
  wrong_feature: 'a figure on the wrong kind of feature',
  wrong_figure: 'the wrong figure on the right feature',
  tile_placement: 'the tile in a worse spot',
};

/** Words for an unknown kind too: a newer server may know more kinds than this client. */
export const mistakeWords = (kind: string): string => MISTAKE_WORDS[kind as MistakeKind] ?? kind.replace(/_/g, ' ');

const OPTION_NAMES: Record<string, string> = { tinyCity: 'small cities', river: 'the River', innsCathedrals: 'Inns & Cathedrals', abbot: 'the Abbot' };

/** A profile's results row by option: "With Inns & Cathedrals", "Not rated", "Farmers 2nd edition". */
export function optionLabel(option: string, value: string): string {
  if (option === 'rated') return value === 'on' ? 'Rated' : 'Not rated';
  if (option === 'farmers') return `Farmers ${value} edition`;
  const name = OPTION_NAMES[option] ?? option;
  return `${value === 'on' ? 'With' : 'Without'} ${name}`;
}
