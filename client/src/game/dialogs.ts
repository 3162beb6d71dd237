// The dialogs over the game: the end screen (final scores by kind, bars, rematch), joining an
// open seat, and a game that does not exist.

import { ICONS, PLAYER_COLORS, PLAYER_GLYPHS } from '../art.ts';
import { esc } from '../dom.ts';
import { RATING_MOVES_NOTE, guestMark } from '../players/player-text.ts';
import { seatRatingBadge, seatRatingChange } from '../players/rating-book.ts';
import { type GameView, MAX_NAME_LENGTH, type SeatView } from '../protocol.ts';
import { seatLabel, seatName } from '../text.ts';

export function endScreen(v: GameView, holdsSeat: boolean): string {
  const order = [...v.seats].sort((a, b) => b.score - a.score);
  const best = order[0]?.score ?? 0;
  const winners = order.filter((s) => s.score === best);
  const rows = order.map((s) => scoreRow(v, s, best)).join('');
  const maxScore = Math.max(1, ...v.seats.map((s) => s.score));
  const bars = order.map((s) => scoreBar(v, s, maxScore)).join('');
  const title =
    winners.length > 1
      ? `${winners.map((w) => seatName(v.seats, w.seat)).join(' and ')} share the win!`
      : v.you !== null && winners[0]?.seat === v.you
        ? 'You win!'
        : `${seatName(v.seats, winners[0]?.seat ?? 0)} wins!`;
  return `<div class="dialog end" role="dialog" aria-modal="true" aria-labelledby="end-title">
<h2 id="end-title">${ICONS.trophy} ${esc(title)}</h2>${v.abandoned ? '<p class="muted">The game was abandoned before its last tile: followers were scored as they stood.</p>' : ''}${v.rated ? `<p class="muted">A rated game: the ratings beside the names count it, and the change it made. ${RATING_MOVES_NOTE} <a href="#/leaderboard">Leaderboard</a></p>` : ''}
${
  v.hints
    ? `<p class="hints-used">${v.seats
        .filter((s) => s.kind === 'person')
        .map((s) => `${esc(seatName(v.seats, s.seat))} used ${s.hints ?? 0} ${s.hints === 1 ? 'hint' : 'hints'}`)
        .join(' · ')}</p>`
    : ''
}
<table class="scores"><thead><tr><th>#</th><th>Player</th><th data-short="Road">Roads</th><th data-short="City">Cities</th><th data-short="Mon.">Monasteries</th><th data-short="Farm">Farms</th><th data-short="Σ">Total</th></tr></thead><tbody>${rows}</tbody></table>
<div class="score-bars" aria-hidden="true">${bars}<div class="legend"><span class="seg road"></span>roads <span class="seg city"></span>cities <span class="seg monastery"></span>monasteries <span class="seg farm"></span>farms</div></div>
<div class="row">${holdsSeat ? `<button class="btn primary" data-action="rematch">${v.rematch ? 'Join the rematch' : 'Rematch'}</button>` : ''}<a class="btn" href="#/replay/${encodeURIComponent(v.gameId)}">Watch the replay</a><a class="btn" data-action="analyse-game" href="#/replay/${encodeURIComponent(v.gameId)}?analyse">Analyse the game</a><button class="btn" data-action="close-overlay">See the board</button><a class="btn" href="#/">Lobby</a></div></div>`;
}

function scoreRow(v: GameView, s: SeatView, best: number): string {
  const p = s.points;
  const rank = v.seats.filter((o) => o.score > s.score).length + 1;
  return `<tr class="${s.score === best ? 'winner' : ''}" style="--pc:${PLAYER_COLORS[s.seat]}"><td class="rank">${rank}</td><th scope="row"><span class="swatch" aria-hidden="true">${PLAYER_GLYPHS[s.seat]}</span> ${esc(seatLabel(v.seats, s.seat))}${seatRatingBadge(s.playerId)}${v.rated ? seatRatingChange(v.gameId, s.playerId) : ''}${v.you === s.seat ? ' <em>(you)</em>' : ''}</th><td>${p.road}</td><td>${p.city}</td><td>${p.monastery}</td><td>${p.farm}</td><td class="total">${s.score}</td></tr>`;
}

function scoreBar(v: GameView, s: SeatView, maxScore: number): string {
  const p = s.points;
  const seg = (n: number, cls: string) => (n > 0 ? `<span class="seg ${cls}" style="flex:${n}" title="${cls} ${n}"></span>` : '');
  return `<div class="bar-row" style="--pc:${PLAYER_COLORS[s.seat]}"><span class="bar-name"><span class="log-dot" aria-hidden="true">${PLAYER_GLYPHS[s.seat]}</span>${esc(seatName(v.seats, s.seat))}</span><span class="bar" style="width:${(s.score / maxScore) * 100}%">${seg(p.road, 'road')}${seg(p.city, 'city')}${seg(p.monastery, 'monastery')}${seg(p.farm, 'farm')}</span></div>`;
}

export function joinDialog(v: GameView, name: string): string {
  const pills = v.seats
    .map(
      (s) =>
        `<span class="seat-pill" style="--pc:${PLAYER_COLORS[s.seat]}">${PLAYER_GLYPHS[s.seat]} ${esc(s.kind === 'bot' ? seatLabel(v.seats, s.seat) : (s.name ?? 'open seat'))}${guestMark(s)}</span>`,
    )
    .join(' ');
  return `<form class="dialog" role="dialog" aria-modal="true" aria-labelledby="join-title" data-form="join">
<h2 id="join-title">Join this game</h2>
<p>${pills}</p>
<label class="field">Your name <input name="name" required maxlength="${MAX_NAME_LENGTH}" autocomplete="nickname" value="${esc(name)}"></label>
<div class="row"><button class="btn primary" type="submit">Take a seat</button><button class="btn" type="button" data-action="watch">Just watch</button></div></form>`;
}

export function missingDialog(message: string): string {
  return `<div class="dialog" role="dialog" aria-modal="true" aria-labelledby="missing-title"><h2 id="missing-title">No such game</h2><p>${esc(message)}</p><p>The game may have ended on a server that has since restarted.</p><div class="row"><a class="btn primary" href="#/">Back to the lobby</a></div></div>`;
}
