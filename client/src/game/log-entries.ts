// The game log's entries, made from each move (placement, scorings, discards); no DOM.

import type { LastMove, SeatView } from '../protocol.ts';
import type { BoardIndex } from './features.ts';
import { capitalize, eventText, moveText, moveWhere, seatName, tileWords } from '../text.ts';

export interface LogEntry {
  turn: number;
  seat: number | null;
  text: string;
  detail: string[];
  kind: 'move' | 'score' | 'discard' | 'info' | 'final';
  /** The tile the entry is about (moves, scorings), flashed on the board when picked. */
  at?: { x: number; y: number };
  /** A scoring's feature, by one of its segments (features.ts), outlined when picked. */
  feature?: { x: number; y: number; seg: number };
}

/** A move's log entries in the order they happened, and the bot's time if a bot made it. */
export function logEntries(last: LastMove, seats: SeatView[], board?: BoardIndex): { entries: LogEntry[]; bot: { name: string; ms: number; source: string } | null } {
  const detail: string[] = [moveWhere(last)];
  let bot = null;
  if (last.bot) {
    detail.push(`${last.bot.standIn ? 'a bot stood in · ' : ''}thought ${Math.round(last.bot.elapsedMs)} ms${last.bot.source && last.bot.source !== 'search' ? ` (${last.bot.source})` : ''}`);
    bot = { name: seatName(seats, last.seat), ms: last.bot.elapsedMs, source: last.bot.source };
  }
  const at = { x: last.move.x, y: last.move.y };
  const entries: LogEntry[] = [{ turn: last.turn, seat: last.seat, text: moveText(last, seats), detail, kind: 'move', at }];
  const scored = board?.scoredBy(at.x, at.y, last.events) ?? [];
  last.events.forEach((e, i) => {
    const f = scored[i]?.parts[0];
    entries.push({
      turn: last.turn,
      seat: e.players.length === 1 ? e.players[0] : null,
      text: eventText(e, seats),
      detail: [],
      kind: e.phase === 'final' ? 'final' : 'score',
      ...(f ? { at, feature: { x: f.x, y: f.y, seg: f.seg } } : {}),
    });
  });
  for (const d of last.discarded)
    entries.push({ turn: last.turn, seat: null, text: `${capitalize(tileWords(d, true))} fits nowhere and is discarded; the same player draws again.`, detail: [], kind: 'discard' });
  return { entries, bot };
}
