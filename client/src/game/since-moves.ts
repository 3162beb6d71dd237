// "Since you last looked", as plain data (no DOM, unit-tested): which moves a player opening a
// turn-based game after days away is shown, and their list in words. since.ts replays them.

import { esc } from '../charts.ts';
import type { GameView, LastMove, SeatView } from '../protocol.ts';
import { moveText } from '../text.ts';

/** The others' moves since `you` last moved (all of them when you have not moved yet), oldest
 * first; none for a watcher or when the last move is yours. */
export function sinceYourLastMove(history: readonly LastMove[], you: number | null): LastMove[] {
  if (you === null) return [];
  let start = 0;
  for (let i = history.length - 1; i >= 0; i--)
    if (history[i].seat === you) {
      start = i + 1;
      break;
    }
  return history.slice(start).filter((m) => m.seat !== you);
}

/** Whether opening this game shows what happened since: a turn-based game being played, with
 * this player's seat, and others' moves since their last one. */
export function showsSince(v: GameView, moves: readonly LastMove[]): boolean {
  return v.clock.pace !== undefined && v.you !== null && v.status === 'playing' && moves.length > 0;
}

/** The list beside the board: each move in words, the one on the board now marked. */
export function sinceList(moves: readonly LastMove[], seats: SeatView[], step: number): string {
  const items = moves.map((m, i) => `<li${i === step ? ' aria-current="step" class="now"' : ''}>${esc(moveText(m, seats))}</li>`).join('');
  return `<div class="since-head"><strong>Since you last looked</strong> · ${moves.length} ${moves.length === 1 ? 'move' : 'moves'} by the others</div><ol class="since-moves">${items}</ol>`;
}
