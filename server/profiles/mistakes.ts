// What kind of mistake a move was: the played move against the analysis's best one, read from the
// two moves alone (bot-engine/game.ts Move), so a stored analysis is classified without replaying
// its game. The checks run from the coarsest difference to the finest: the first that differs names it.

import type { Move } from '../../bot-engine/game.ts';
import { MISTAKE_KINDS, type MistakeKind } from '../wire/profile.ts';

export { MISTAKE_KINDS, type MistakeKind };

/** The kind of feature a figure spot names: "city:N" → "city", "monastery" → "monastery". */
function featureKind(spot: string): string {
  return spot.split(':')[0];
}

/** The figure a move places, or null when it places none. */
function figureOf(move: Move): string | null {
  return move.meeple === null ? null : (move.figure ?? 'follower');
}

/** How the played move differs from the best one; null when they are the same move. */
export function mistakeKind(played: Move, best: Move): MistakeKind | null {
  if (Boolean(played.returnAbbot) !== Boolean(best.returnAbbot)) return 'abbot_timing';
  const playedFigure = figureOf(played);
  const bestFigure = figureOf(best);
  if (bestFigure !== null && playedFigure === null) return 'figure_withheld';
  if (playedFigure !== null && bestFigure === null) return 'figure_wasted';
  if (played.meeple !== null && best.meeple !== null) {
    if (featureKind(played.meeple) !== featureKind(best.meeple)) return 'wrong_feature';
    if (playedFigure !== bestFigure) return 'wrong_figure';
  }
  const same = played.x === best.x && played.y === best.y && played.rotation === best.rotation && played.meeple === best.meeple;
  return same ? null : 'tile_placement';
}
