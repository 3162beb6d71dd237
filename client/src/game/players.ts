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

function playerRow(v: GameView, s: SeatView): string {
  const current = v.status === 'playing' && v.currentSeat === s.seat;
  const you = v.you === s.seat;
  // The expansions' figures after the followers, present only with their option.
  const extra = [...(s.large !== undefined ? [meepleIcon(s.seat, 14, s.large === 0, 'large')] : []), ...(s.abbots !== undefined ? [meepleIcon(s.seat, 14, s.abbots === 0, 'abbot')] : [])];
  const followers = Array.from({ length: FOLLOWERS }, (_, i) => meepleIcon(s.seat, 14, i >= s.followers)).join('') + extra.join('');
  const inHand = [
    `${s.followers} of ${FOLLOWERS} followers`,
    ...(s.large !== undefined ? [`large follower ${s.large ? 'in supply' : 'placed'}`] : []),
    ...(s.abbots !== undefined ? [`abbot ${s.abbots ? 'in supply' : 'placed'}`] : []),
  ].join(', ');
  const p = s.points;
  const chip = current && v.botThinking ? '<span class="chip">thinking…</span>' : current ? '<span class="chip">to play</span>' : '';
  return `<li class="player${current ? ' current' : ''}${you ? ' you' : ''}" style="--pc:${PLAYER_COLORS[s.seat]}" data-seat="${s.seat}">
<div class="p-head"><span class="swatch" aria-hidden="true">${PLAYER_GLYPHS[s.seat]}</span>
<span class="p-name">${esc(seatName(v.seats, s.seat))}${seatRatingBadge(s.playerId)}${guestMark(s)}${you ? ' <em>(you)</em>' : ''}</span>
<span class="p-score" aria-label="score">${s.score}</span></div>
<div class="p-sub"><span class="p-role${s.kind === 'person' && s.name && !s.connected ? ' away' : ''}">${esc(seatRole(s))} · ${esc(glyphName(s.seat))}</span>${chip}</div>
<div class="p-followers" role="img" aria-label="${esc(inHand)}" title="${esc(inHand)}">${followers}</div>
<div class="p-points" title="Points by feature"><span>City ${p.city}</span><span>Road ${p.road}</span><span>Monastery ${p.monastery}</span><span>Farm ${p.farm}</span></div>
</li>`;
}
