// The game log's entries, made from each move (placement, scorings, discards); no DOM.

import type { LastMove, SeatView } from '../protocol.ts';
import { eventText, moveText, seatName } from '../text.ts';

export interface LogEntry {
  turn: number;
  seat: number | null;
  text: string;
  detail: string[];
  kind: 'move' | 'score' | 'discard' | 'info' | 'final';
}

/** A move's log entries in the order they happened, and the bot's time if a bot made it. */
export function logEntries(last: LastMove, seats: SeatView[]): { entries: LogEntry[]; bot: { name: string; ms: number; source: string } | null } {
  const detail: string[] = [];
  let bot = null;
  if (last.bot) {
    detail.push(`${last.bot.standIn ? 'a bot stood in · ' : ''}thought ${Math.round(last.bot.elapsedMs)} ms${last.bot.source && last.bot.source !== 'search' ? ` (${last.bot.source})` : ''}`);
    bot = { name: seatName(seats, last.seat), ms: last.bot.elapsedMs, source: last.bot.source };
  }
  const entries: LogEntry[] = [{ turn: last.turn, seat: last.seat, text: moveText(last, seats), detail, kind: 'move' }];
  for (const e of last.events)
    entries.push({ turn: last.turn, seat: e.players.length === 1 ? e.players[0] : null, text: eventText(e, seats), detail: [], kind: e.phase === 'final' ? 'final' : 'score' });
  for (const d of last.discarded) entries.push({ turn: last.turn, seat: null, text: `Tile ${d} fits nowhere and is discarded; the same player draws again.`, detail: [], kind: 'discard' });
  return { entries, bot };
}
