// Whose turn it is, the turn clock, the bot's thinking time and the hint for the player to move.

import { ICONS, PLAYER_COLORS, meepleIcon } from '../art.ts';
import { esc, fmtDuration, patch } from '../dom.ts';
import { paceText, seatName, timeLeftText } from '../text.ts';
import type { GameScreenState } from './state.ts';

export function renderTurn(box: HTMLElement, s: GameScreenState): void {
  const v = s.view!;
  let html = '';
  if (v.status === 'waiting') {
    const open = v.seats.filter((seat) => seat.kind === 'person' && !seat.name).length;
    html = `<h2>Waiting for players</h2><p>${open} open ${open === 1 ? 'seat' : 'seats'}. Share the invite link; the game starts when every seat is taken.</p>`;
  } else if (v.status === 'finished') {
    const best = Math.max(...v.seats.map((seat) => seat.score));
    const winners = v.seats.filter((seat) => seat.score === best).map((seat) => seatName(v.seats, seat.seat));
    html = `<h2>${v.abandoned ? 'Game abandoned' : 'Game over'}</h2><p>${esc(winners.join(' and '))} ${winners.length > 1 ? 'share the win' : 'wins'} with ${best}.</p><button class="btn" data-action="show-end" data-focus-key="show-end">Final scores</button> <a class="btn" href="#/replay/${encodeURIComponent(v.gameId)}" data-focus-key="replay">Replay</a>`;
  } else {
    const cur = v.currentSeat ?? 0;
    const mine = v.you === cur;
    const who = mine ? 'Your turn' : `${esc(seatName(v.seats, cur))}’s turn`;
    const hint = s.selection ? (s.pending ? 'Sending…' : 'Pick a follower spot (or none), then confirm.') : 'Click a square to place the tile: solid yellow fits as shown, dashed fits once turned.';
    // The stand-in's note first: what comes and goes with the turn (the hint) must not move its
    // button between a press and its release.
    html = `${standInNote(s)}<div class="whose" style="--pc:${PLAYER_COLORS[cur]}">${meepleIcon(cur, 22)}<h2>${who}</h2></div>
<p class="clock-line"><span class="clock" data-clock></span>${v.seats[cur]?.kind === 'bot' || v.botThinking ? ` · <span class="thinking" data-thinking>${v.botThinking ? 'bot is thinking…' : ''}</span>` : ''}</p>
${mine ? `<p class="hint">${hint}</p>` : ''}${mine && v.hints ? hintButton(s) : ''}
${s.lastBot ? `<p class="muted small">Last bot move: ${esc(s.lastBot.name)}, ${Math.round(s.lastBot.ms)} ms</p>` : ''}`;
  }
  patch(box, html);
  tickTurn(box, s);
}

function hintButton(s: GameScreenState): string {
  const used = s.view?.seats[s.view.you ?? 0]?.hints ?? 0;
  const shown = typeof s.hint === 'object' && s.hint !== null;
  const label = s.hint === 'asked' ? 'The expert is thinking…' : shown ? 'Expert’s move: dashed on the board' : 'Show the expert’s move';
  return `<p class="hint-line"><button class="btn small" data-action="hint" data-focus-key="hint"${s.hint ? ' disabled' : ''}>${ICONS.bot} ${label}</button> <span class="muted small">${used} ${used === 1 ? 'hint' : 'hints'} used</span></p>`;
}

/** When a bot stands in for this player: why, and the button that takes the seat back. */
function standInNote(s: GameScreenState): string {
  const v = s.view!;
  const why = v.you !== null ? v.seats[v.you]?.standIn : null;
  if (!why) return '';
  if (why === 'dropped') return '<div class="stand-in" role="alert"><p>You missed three moves in a row of deadlines: a bot plays your seat for the rest of the game.</p></div>';
  return `<div class="stand-in" role="alert"><p>${why === 'clock' ? 'Your time ran out' : 'You were away'}: a bot is playing your seat.</p><button class="btn primary" data-action="claim" data-focus-key="claim">Take my seat back</button></div>`;
}

/** Refreshes the running clocks: the turn's time left (or spent) and the bot's thinking time. */
export function tickTurn(box: HTMLElement, s: GameScreenState): void {
  const v = s.view;
  if (!v) return;
  const clockEl = box.querySelector<HTMLElement>('[data-clock]');
  if (clockEl) {
    const remaining = v.clock.deadline !== null ? v.clock.deadline - Date.now() : null;
    if (v.clock.pace) {
      // Turn-based: days per move, the time left in days and hours.
      clockEl.innerHTML = `${ICONS.clock} ${esc(paceText(v.clock))}${remaining !== null ? ` · ${timeLeftText(remaining)} left` : ''}`;
      clockEl.classList.toggle('low', remaining !== null && remaining < 3_600_000);
    } else {
      clockEl.innerHTML = `${ICONS.clock} ${remaining !== null ? `${fmtDuration(remaining)} left` : fmtDuration(performance.now() - s.turnStarted)}`;
      clockEl.classList.toggle('low', remaining !== null && remaining < 15000);
    }
  }
  const thinking = box.querySelector<HTMLElement>('[data-thinking]');
  if (thinking)
    thinking.innerHTML =
      v.botThinking && s.botSince !== null
        ? `${ICONS.bot} bot is thinking… ${Math.round(performance.now() - s.botSince)} ms`
        : v.status === 'playing' && v.seats[v.currentSeat ?? 0]?.kind === 'bot'
          ? `${ICONS.bot} bot to move`
          : '';
}
