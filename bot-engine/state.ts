// The whole game state lives in one ArrayBuffer with typed-array views over it, so a bot can
// copy a state into a preallocated one without allocating (`copyFrom`) and send it to a
// worker as plain bytes.

import { MAX_SEGMENTS, MAX_TILES, TOTAL_TILES, TYPE_COUNT } from './tiles.ts';
import { EXPANSION_HEADER_INTS, MAX_SEATS } from './expansions/options.ts';
import { FIGURE_ABBOT, FIGURE_FOLLOWER, FIGURE_KINDS, FIGURE_LARGE } from './expansions/options.ts';

/** The board is a 128×128 torus: a game spans at most 101 tiles plus a frontier ring, so no two
 * live cells ever share an index. Cell = (y & 127) << 7 | (x & 127). */
const BOARD_BITS = 7;
const BOARD_SIDE = 1 << BOARD_BITS;
const BOARD_MASK = BOARD_SIDE - 1;
export const CELLS = BOARD_SIDE * BOARD_SIDE;
export const NODES = MAX_TILES * MAX_SEGMENTS;
/** Seats in a base game (the server's and client's limit); Inns & Cathedrals adds a sixth. */
export const MAX_PLAYERS = 5;
export { MAX_SEATS };
export const FOLLOWERS = 7;
/** Each placement adds at most 3 frontier cells and removes 1. */
const MAX_FRONTIER = 4 + 2 * MAX_TILES;
/** Most placements of one tile: a rotation mask for every frontier cell (`listPlacements`). */
export const MAX_PLACEMENTS = 4 * MAX_FRONTIER;
/** The base game's bag: 71 tiles after the start tile. */
export const BAG_SIZE = TOTAL_TILES - 1;
/** The largest bag (the River and Inns & Cathedrals: 100 after the spring). */
export const MAX_BAG = MAX_TILES - 1;

// Header slots (Int32): the core's, then each expansion's block (expansions/options.ts).
export const H_PLAYERS = 0;
export const H_CURRENT = 1; // seat to place the current tile
export const H_PLACED = 2; // tiles on the board, the start tile included
export const H_BAGPOS = 3; // index in `bag` of the current tile
export const H_TINY_CITY = 4;
export const H_FARMERS = 5; // farmer-scoring edition: 1, 2 or 3
export const H_FINISHED = 6; // 1 once final scoring ran
export const H_FRONTIER = 7; // frontier length
export const H_LOG = 8; // log length
export const H_BAGLEN = 9; // tiles in this game's bag
export const H_OPTIONS = 10; // expansions on: expansions/options.ts's bits
export const H_SCORE = 12; // MAX_SEATS slots
/** FIGURE_KINDS × MAX_SEATS slots: [figure * MAX_SEATS + player] figures of that kind in supply
 * (feature-modifiers.ts's FIGURE_*; the expansions' figures are 0 or 1 a player). */
export const H_SUPPLY = H_SCORE + MAX_SEATS;
export const H_FOLLOWERS = H_SUPPLY + FIGURE_FOLLOWER * MAX_SEATS;
export const H_BY_KIND = H_SUPPLY + FIGURE_KINDS * MAX_SEATS; // 4 × MAX_SEATS slots: [player*4 + kind] points
/** The first expansion slot: each expansion's block starts at H_EXPANSIONS + `headerBlock(key)`. */
export const H_EXPANSIONS = H_BY_KIND + 4 * MAX_SEATS;
const HEADER_INTS = H_EXPANSIONS + EXPANSION_HEADER_INTS;

/** The header slot holding `player`'s figures of kind `figure` in supply. */
export function supplySlot(figure: number, player: number): number {
  return H_SUPPLY + figure * MAX_SEATS + player;
}

interface Layout {
  bytes: number;
  sections: Record<string, [offset: number, length: number, ctor: 'i32' | 'u32' | 'i16' | 'u16' | 'u8' | 'i8']>;
}

const layout: Layout = (() => {
  const sections: Layout['sections'] = {};
  let offset = 0;
  const add = (name: string, length: number, ctor: Layout['sections'][string][2], align: number) => {
    offset = Math.ceil(offset / align) * align;
    sections[name] = [offset, length, ctor];
    offset += length * align;
  };
  add('header', HEADER_INTS, 'i32', 4);
  add('meeples', NODES, 'u32', 4);
  add('parent', NODES, 'i16', 2);
  add('next', NODES, 'i16', 2);
  add('size', NODES, 'i16', 2);
  add('open', NODES, 'i16', 2);
  add('pennants', NODES, 'u8', 1);
  add('mods', NODES, 'u8', 1);
  add('kind', NODES, 'u8', 1);
  add('owner', NODES, 'i8', 1);
  add('ptype', MAX_TILES, 'u8', 1);
  add('prot', MAX_TILES, 'u8', 1);
  add('px', MAX_TILES, 'i8', 1);
  add('py', MAX_TILES, 'i8', 1);
  add('pplayer', MAX_TILES, 'i8', 1);
  add('pspot', MAX_TILES, 'i8', 1);
  add('pfigure', MAX_TILES, 'u8', 1);
  add('pcell', MAX_TILES, 'u16', 2);
  add('bag', MAX_BAG, 'u8', 1);
  add('remaining', TYPE_COUNT, 'u8', 1);
  add('log', MAX_BAG, 'i16', 2);
  add('fcell', MAX_FRONTIER, 'u16', 2);
  add('fx', MAX_FRONTIER, 'i8', 1);
  add('fy', MAX_FRONTIER, 'i8', 1);
  add('cellTile', CELLS, 'u8', 1);
  add('cellCode', CELLS, 'u8', 1);
  return { bytes: Math.ceil(offset / 8) * 8, sections };
})();

const STATE_BYTES = layout.bytes;
/** Where the board arrays (`cellTile`, then `cellCode`, the last sections) begin. */
const BOARD_OFFSET = layout.sections.cellTile[0];

const CTORS = { i32: Int32Array, u32: Uint32Array, i16: Int16Array, u16: Uint16Array, u8: Uint8Array, i8: Int8Array };

function view<T>(buffer: ArrayBuffer, name: string): T {
  const [offset, length, ctor] = layout.sections[name];
  return new CTORS[ctor](buffer, offset, length) as T;
}

export class GameState {
  readonly buffer: ArrayBuffer;
  readonly bytes: Uint8Array;
  /** Every byte before the board arrays: made once, so that copyFrom allocates nothing. */
  private readonly beforeBoard: Uint8Array;
  readonly h: Int32Array;
  /** Figures' strength on each feature root, FOLLOWER_BITS per player (`followersOf`); 0 when
   * none. At most 7 followers + 2 for the large one = 9 < 16, so joining two features adds them. */
  readonly meeples: Uint32Array;
  readonly parent: Int16Array;
  /** Circular list of a feature's member segments. */
  readonly next: Int16Array;
  readonly size: Int16Array;
  /** Open edges of a road or city; missing neighbours of a monastery. 0 = complete. */
  readonly open: Int16Array;
  readonly pennants: Uint8Array;
  /** A feature's modifiers (inn, cathedral: feature-modifiers.ts's MOD_* bits), OR-ed on joins. */
  readonly mods: Uint8Array;
  readonly kind: Uint8Array;
  /** The figure on this segment: its player | figure << 3 (`ownerPlayer`, `ownerFigure`), or -1. */
  readonly owner: Int8Array;
  // Placements, in order; the start tile is placement 0.
  readonly ptype: Uint8Array;
  readonly prot: Uint8Array;
  readonly px: Int8Array;
  readonly py: Int8Array;
  readonly pplayer: Int8Array;
  readonly pspot: Int8Array;
  /** The figure placed with each tile (feature-modifiers.ts's FIGURE_*), kept after it goes home. */
  readonly pfigure: Uint8Array;
  readonly pcell: Uint16Array;
  /** Draw order of the tiles after the start tile (`H_BAGLEN` of them); hidden from players past `bagPos`. */
  readonly bag: Uint8Array;
  /** Tiles of each type not yet drawn (the current tile included). */
  readonly remaining: Uint8Array;
  /** Game log: placement index (≥ 1) or a discard as -(type + 1). */
  readonly log: Int16Array;
  readonly fcell: Uint16Array;
  readonly fx: Int8Array;
  readonly fy: Int8Array;
  /** Placement index + 1 at each cell, 0 when empty. */
  readonly cellTile: Uint8Array;
  /** For empty cells: the edge each side must match (2 bits a side, 0 = free). */
  readonly cellCode: Uint8Array;

  constructor(buffer: ArrayBuffer = new ArrayBuffer(STATE_BYTES)) {
    if (buffer.byteLength !== STATE_BYTES) throw new Error(`a game state is ${STATE_BYTES} bytes, got ${buffer.byteLength}`);
    this.buffer = buffer;
    this.bytes = new Uint8Array(buffer);
    this.beforeBoard = new Uint8Array(buffer, 0, BOARD_OFFSET);
    this.h = view(buffer, 'header');
    this.meeples = view(buffer, 'meeples');
    this.parent = view(buffer, 'parent');
    this.next = view(buffer, 'next');
    this.size = view(buffer, 'size');
    this.open = view(buffer, 'open');
    this.pennants = view(buffer, 'pennants');
    this.mods = view(buffer, 'mods');
    this.kind = view(buffer, 'kind');
    this.owner = view(buffer, 'owner');
    this.ptype = view(buffer, 'ptype');
    this.prot = view(buffer, 'prot');
    this.px = view(buffer, 'px');
    this.py = view(buffer, 'py');
    this.pplayer = view(buffer, 'pplayer');
    this.pspot = view(buffer, 'pspot');
    this.pfigure = view(buffer, 'pfigure');
    this.pcell = view(buffer, 'pcell');
    this.bag = view(buffer, 'bag');
    this.remaining = view(buffer, 'remaining');
    this.log = view(buffer, 'log');
    this.fcell = view(buffer, 'fcell');
    this.fx = view(buffer, 'fx');
    this.fy = view(buffer, 'fy');
    this.cellTile = view(buffer, 'cellTile');
    this.cellCode = view(buffer, 'cellCode');
  }

  /** Overwrites this state with `other`, byte for byte, without allocating. The two 16 KiB
   * board arrays are zero outside placed and frontier cells, so only those cells are cleared
   * and copied: a search copies states tens of thousands of times per move. */
  copyFrom(other: GameState): this {
    if (other === this) return this;
    this.clearBoardCells();
    this.bytes.set(other.beforeBoard);
    const placed = Math.min(other.h[H_PLACED], MAX_TILES);
    for (let q = 0; q < placed; q++) this.copyCell(other, other.pcell[q]);
    const frontier = Math.min(other.h[H_FRONTIER], MAX_FRONTIER);
    for (let f = 0; f < frontier; f++) this.copyCell(other, other.fcell[f]);
    return this;
  }

  private clearBoardCells(): void {
    const placed = Math.min(this.h[H_PLACED], MAX_TILES);
    for (let q = 0; q < placed; q++) {
      this.cellTile[this.pcell[q]] = 0;
      this.cellCode[this.pcell[q]] = 0;
    }
    const frontier = Math.min(this.h[H_FRONTIER], MAX_FRONTIER);
    for (let f = 0; f < frontier; f++) this.cellCode[this.fcell[f]] = 0;
  }

  private copyCell(other: GameState, cell: number): void {
    this.cellTile[cell] = other.cellTile[cell];
    this.cellCode[cell] = other.cellCode[cell];
  }

  clone(): GameState {
    return new GameState(this.buffer.slice(0));
  }

  get players(): number {
    return this.h[H_PLAYERS];
  }
  get currentPlayer(): number {
    return this.h[H_CURRENT];
  }
  get placed(): number {
    return this.h[H_PLACED];
  }
  get finished(): boolean {
    return this.h[H_FINISHED] === 1;
  }
  /** Tiles still to be drawn, the current one included. */
  get tilesLeft(): number {
    return this.h[H_BAGLEN] - this.h[H_BAGPOS];
  }
  /** The tile type to place now, or -1 when the bag is empty. */
  get currentTile(): number {
    const pos = this.h[H_BAGPOS];
    return pos < this.h[H_BAGLEN] ? this.bag[pos] : -1;
  }
  score(player: number): number {
    return this.h[H_SCORE + player];
  }
  followers(player: number): number {
    return this.h[supplySlot(FIGURE_FOLLOWER, player)];
  }
  /** Large followers (0 or 1) in the player's supply (Inns & Cathedrals). */
  largeFollowers(player: number): number {
    return this.h[supplySlot(FIGURE_LARGE, player)];
  }
  /** Abbots (0 or 1) in the player's supply (the Abbot). */
  abbots(player: number): number {
    return this.h[supplySlot(FIGURE_ABBOT, player)];
  }
  /** Expansions on: expansions/options.ts's bits. */
  get options(): number {
    return this.h[H_OPTIONS];
  }
}

/** Bits per player in a `meeples` word: strengths 0..15 (feature-modifiers.ts's STRENGTH_BITS). */
export const FOLLOWER_BITS = 4;

/** The strength `player` has on the feature rooted at `root`: followers, the large one counting two. */
export function followersOf(s: GameState, root: number, player: number): number {
  return (s.meeples[root] >>> (player * FOLLOWER_BITS)) & 15;
}

/** The player of an `owner` entry (≥ 0). */
export function ownerPlayer(owner: number): number {
  return owner & 7;
}

/** The figure of an `owner` entry (≥ 0): feature-modifiers.ts's FIGURE_FOLLOWER, FIGURE_LARGE, FIGURE_ABBOT. */
export function ownerFigure(owner: number): number {
  return owner >> 3;
}

export function cellOf(x: number, y: number): number {
  return ((y & BOARD_MASK) << BOARD_BITS) | (x & BOARD_MASK);
}

/** Neighbouring cell across edge d (0 N, 1 E, 2 S, 3 W). */
export function neighbour(cell: number, d: number): number {
  switch (d) {
    case 0:
      return (cell - BOARD_SIDE) & (CELLS - 1);
    case 1:
      return (cell & ~BOARD_MASK) | ((cell + 1) & BOARD_MASK);
    case 2:
      return (cell + BOARD_SIDE) & (CELLS - 1);
    default:
      return (cell & ~BOARD_MASK) | ((cell - 1) & BOARD_MASK);
  }
}
