// A stored game as a record (tessera-game/1): what the record route, analysis and the listing
// of finished games read, straight from one stored row, with no live room.

import { type GameRecord, RECORD_FORMAT } from '../../bot-engine/record.ts';
import { recordNames } from './seats.ts';
import type { StoredGame } from './store.ts';

/** The record a stored game replays from (open seats get placeholder names). */
export function recordOf(stored: StoredGame): GameRecord {
  return {
    format: RECORD_FORMAT,
    rules: stored.setup.rules,
    players: recordNames(stored.holders),
    seed: stored.setup.seed,
    moves: stored.moves,
    final: stored.finished,
    ...(stored.end?.abandoned ? { abandoned: true } : {}),
  };
}
