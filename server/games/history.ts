// The moves of a restored game, as the live `last` frames showed them: what a connection that
// joins or comes back mid-game needs to rebuild its log. Bot timings are not part of the record
// and are left out.

import type { GameRecord, ReplayResult } from '../../bot-engine/record.ts';
import type { LastMove } from '../wire/game.ts';

/** `replay` is `replayRecord(record)`. */
export function moveHistory(record: GameRecord, replay: ReplayResult): LastMove[] {
  const { steps, finalEvents } = replay;
  const out: LastMove[] = [];
  record.moves.forEach((m, i) => {
    // A discard follows the placement it came after (every tile fits next to the start tile, so
    // none can come before the first placement).
    if ('discard' in m) out.at(-1)?.discarded.push(m.discard);
    else {
      const { tile, ...move } = m;
      out.push({ turn: i, seat: steps[i].seat, tile, move: { ...move, meeple: m.meeple ?? null }, events: steps[i].events, discarded: [] });
    }
  });
  // Live, the final scoring comes with the last tile.
  out.at(-1)?.events.push(...finalEvents);
  return out;
}
