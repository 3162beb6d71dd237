// What an expansion module gives the core (docs/ENGINE.md, "Expansions"): its rule key, and hooks
// the core calls at fixed points of setup, placement and the turn, as a JCloisterZone capability
// is called. The hot paths stay flat: a hook is read from a table by tile type or figure kind,
// so the base game pays one table read where it used to test an option.

import type { GameState } from '../state.ts';
import type { ScoreEvent } from '../score-events.ts';
import type { ExpansionOptions } from '../expansion-tiles.ts';
import type { ExpansionKey } from './options.ts';

/** A figure an expansion adds to each player's supply (one each). */
export interface FigureKind {
  /** Its index (options.ts's FIGURE_*, whose FIGURE_NAMES and FIGURE_STRENGTH give its name and
   * weight): a figure-spot's figure bits and its supply column. */
  readonly figure: number;
  /** Its name in error messages ("no large follower left in the supply"). */
  readonly word: string;
  /** Local segments of each tile type it may stand on (tiles.ts's FOLLOWER_SEGS; the abbot's own). */
  readonly segs: Uint8Array;
  /** Why it may not stand on a spot outside `segs`. */
  readonly wrongSpot: (spot: string) => string;
  /** After it stands on placement p's segment, and after it goes home: the expansion's own
   * bookkeeping (the abbot remembers its monastery). */
  readonly stood?: (s: GameState, player: number, placement: number) => void;
  readonly wentHome?: (s: GameState, player: number) => void;
}

/** Something a turn may do instead of placing a figure (the Abbot: take the abbot back). */
export interface TurnAction {
  /** Its figure-spot value, beyond every real figure-spot (local | figure << 3). */
  readonly spot: number;
  /** What the placement's `pfigure` keeps of it, so a record can say it was done. */
  readonly pfigure: number;
  /** Whether the mover may do it with the current tile on frontier slot fi. */
  readonly allowed: (s: GameState, fi: number) => boolean;
  /** What is wrong with doing it with the current tile on frontier slot fi, or null. */
  readonly refusal: (s: GameState, fi: number) => string | null;
  /** Does it, before the tile lands at (x, y). */
  readonly apply: (s: GameState, player: number, x: number, y: number, events?: ScoreEvent[]) => void;
}

/** An expansion: every hook is optional, and the core calls only those of expansions on. */
export interface Expansion {
  readonly key: ExpansionKey;
  /** Its name in error messages ("needs rules.abbot" reads its key). */
  readonly name: string;
  /** Seats a game may have with it on (the base game's 5 otherwise). */
  readonly seats?: number;
  readonly figures?: readonly FigureKind[];
  /** Setup: the start tile it puts down instead of the base game's D, and what it sets up once
   * the start tile is down (its header slots). */
  readonly startTile?: number;
  readonly start?: (s: GameState, options: ExpansionOptions) => void;
  /** Tile types whose placements it decides, by tile type (1 = its own). */
  readonly ownTiles?: Uint8Array;
  /** Its tiles' legal placements (frontier slot << 2 | rotation), and what is wrong with one. */
  readonly listPlacements?: (s: GameState, type: number, out: Int32Array) => number;
  readonly placementRefusal?: (s: GameState, type: number, fi: number, r: number, rotation: number) => string | null;
  /** After one of its tiles is placed (at x, y, rotation r), before the tile lands. */
  readonly placing?: (s: GameState, type: number, x: number, y: number, r: number) => void;
  /** Where the bag's section holding slot `pos` ends, when it splits the bag. */
  readonly sectionEnd?: (s: GameState, pos: number) => number;
  readonly turnAction?: TurnAction;
}
