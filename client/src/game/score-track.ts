// The score track, as on the physical game's board: squares 0 to 49 in a band along the board,
// each player's marker on their score (mod 50), a "+50" on it for each lap, markers on one square
// stacked. Pure markup from the view.

import { PLAYER_COLORS, PLAYER_GLYPHS, PLAYER_INK } from '../art.ts';
import { esc, patch } from '../dom.ts';
import type { GameView } from '../protocol.ts';
import { seatName } from '../text.ts';

const SQUARES = 50;
const W = 12;

export function renderScoreTrack(el: HTMLElement, v: GameView): void {
  const squares: string[] = [];
  for (let i = 0; i < SQUARES; i++)
    squares.push(
      `<rect class="sq${i % 5 === 0 ? ' five' : ''}" x="${i * W + 0.5}" y="14.5" width="${W - 1}" height="${W - 1}" rx="1.5"/>${i % 10 === 0 ? `<text x="${i * W + W / 2}" y="11" text-anchor="middle">${i}</text>` : ''}`,
    );
  const onSquare = new Map<number, number>();
  const markers = v.seats.map((s) => {
    const at = s.score % SQUARES;
    const level = onSquare.get(at) ?? 0;
    onSquare.set(at, level + 1);
    const cx = at * W + W / 2;
    const cy = 20 - level * 7;
    const laps = Math.floor(s.score / SQUARES);
    return `<g class="track-marker" data-seat="${s.seat}" data-score="${s.score}" data-square="${at}" transform="translate(${cx} ${cy})"><title>${esc(seatName(v.seats, s.seat))}: ${s.score}</title><circle r="6.2" fill="${PLAYER_COLORS[s.seat]}" stroke="#1b1b1b" stroke-width="1.2"/><text y="2.6" text-anchor="middle" fill="${PLAYER_INK[s.seat]}" class="glyph">${PLAYER_GLYPHS[s.seat]}</text>${laps ? `<text class="lap" x="7" y="-4">+${laps * SQUARES}</text>` : ''}</g>`;
  });
  const label = v.seats.map((s) => `${seatName(v.seats, s.seat)} ${s.score}`).join(', ');
  patch(el, `<svg viewBox="-4 -2 ${SQUARES * W + 8} 32" role="img" aria-label="Score track: ${esc(label)}">${squares.join('')}${markers.reverse().join('')}</svg>`);
}
