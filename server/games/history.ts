// The moves of a game so far, as the live `last` frames showed them: what a connection that
// joins or comes back mid-game needs to rebuild its log. Rebuilt from the record, so it survives
// restarts; bot timings are not part of the record and are left out.

import { type GameRecord, replayRecord } from '../../bot-engine/record.ts';
import type { LastMove } from './view.ts';

export function moveHistory(record: GameRecord): LastMove[] {
  const { steps, finalEvents } = replayRecord(record);
  const out: LastMove[] = [];
  record.moves.forEach((m, i) => {
    if ('discard' in m) out.at(-1)?.discarded.push(m.discard);
    else out.push({ turn: i, seat: steps[i].seat, tile: m.tile, move: { x: m.x, y: m.y, rotation: m.rotation, meeple: m.meeple ?? null }, events: steps[i].events, discarded: [] });
  });
  // Live, the final scoring comes with the last tile.
  out.at(-1)?.events.push(...finalEvents);
  return out;
}
