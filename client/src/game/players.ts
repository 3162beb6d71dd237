// The players panel: each seat with its score, role, figures in supply (followers, and the
// expansions' large follower and abbot) and points by kind.

import { PLAYER_COLORS, PLAYER_GLYPHS, meepleIcon } from '../art.ts';
import { esc, patch } from '../dom.ts';
import { guestMark } from '../players/player-text.ts';
import { seatRatingBadge } from '../players/rating-book.ts';
import type { GameView, SeatView } from '../protocol.ts';
import { glyphName, seatName, seatRole } from '../text.ts';

const FOLLOWERS = 7;

export function renderPlayers(box: HTMLElement, v: GameView): void {
  patch(box, `<h2>Players</h2><ol class="players">${v.seats.map((s) => playerRow(v, s)).join('')}</ol>`);
}

/** The figures a seat has left: each kind as one icon and the number beside it (the expansions'
 * after the followers, present only with their option); the words for screen readers. */
export function figuresMarkup(s: Pick<SeatView, 'seat' | 'followers' | 'large' | 'abbots'>): string {
  const inHand = [
    `${s.followers} of ${FOLLOWERS} followers`,
    ...(s.large !== undefined ? [`large follower ${s.large ? 'in supply' : 'placed'}`] : []),
    ...(s.abbots !== undefined ? [`abbot ${s.abbots ? 'in supply' : 'placed'}`] : []),
  ].join(', ');
  const count = (n: number, figure: 'follower' | 'large' | 'abbot', what: string) =>
    `<span class="fig" data-figure="${figure}" title="${what}">${meepleIcon(s.seat, 16, n === 0, figure)}<span class="fig-count">${n}</span></span>`;
  const figures = [
    count(s.followers, 'follower', `${s.followers} of ${FOLLOWERS} followers left`),
    ...(s.large !== undefined ? [count(s.large, 'large', `large follower ${s.large ? 'in supply' : 'placed'}`)] : []),
    ...(s.abbots !== undefined ? [count(s.abbots, 'abbot', `abbot ${s.abbots ? 'in supply' : 'placed'}`)] : []),
  ].join('');
  return `<div class="p-followers" role="img" aria-label="${esc(inHand)}">${figures}</div>`;
}

function playerRow(v: GameView, s: SeatView): string {
  const current = v.status === 'playing' && v.currentSeat === s.seat;
  const you = v.you === s.seat;
  const p = s.points;
  const chip = current && v.botThinking ? '<span class="chip">thinking…</span>' : current ? '<span class="chip">to play</span>' : '';
  return `<li class="player${current ? ' current' : ''}${you ? ' you' : ''}" style="--pc:${PLAYER_COLORS[s.seat]}" data-seat="${s.seat}">
<div class="p-head"><span class="swatch" aria-hidden="true">${PLAYER_GLYPHS[s.seat]}</span>
<span class="p-name"><span class="p-name-text" title="${esc(seatName(v.seats, s.seat))}">${esc(seatName(v.seats, s.seat))}</span>${seatRatingBadge(s.playerId)}${guestMark(s)}${you ? ' <em>(you)</em>' : ''}</span>
<span class="p-score" aria-label="score">${s.score}</span></div>
<div class="p-sub"><span class="p-role${s.kind === 'person' && s.name && !s.connected ? ' away' : ''}">${esc(seatRole(s))} · ${esc(glyphName(s.seat))}</span>${chip}</div>
${figuresMarkup(s)}
<div class="p-points" title="Points by feature"><span>City ${p.city}</span><span>Road ${p.road}</span><span>Monastery ${p.monastery}</span><span>Farm ${p.farm}</span></div>
</li>`;
}
