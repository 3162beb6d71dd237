// The expansions the engine plays, in a fixed order: it gives each its rule key, its bit in the
// header's H_OPTIONS and where its block of header slots lies, so every thread lays a state out
// alike whatever order it loads the modules in. What a block's slots mean is the expansion
// module's own business (docs/ENGINE.md, "Expansions").

/** Rule keys (docs/RULES.md), in option-bit order. */
export const EXPANSION_KEYS = ['river', 'innsCathedrals', 'abbot'] as const;
export type ExpansionKey = (typeof EXPANSION_KEYS)[number];

/** Seats a state holds: the sixth player of Inns & Cathedrals. */
export const MAX_SEATS = 6;

/** Header slots (Int32) each expansion keeps in a state, beyond its figures' supplies (the core
 * keeps a supply per figure kind and seat: state.ts's H_SUPPLY). */
const HEADER_INTS: Readonly<Record<ExpansionKey, number>> = { river: 7, innsCathedrals: 0, abbot: MAX_SEATS };

/** The expansion's bit in H_OPTIONS. */
export function optionBit(key: ExpansionKey): number {
  return 1 << EXPANSION_KEYS.indexOf(key);
}

/** Header slots of every expansion together, after the core's. */
export const EXPANSION_HEADER_INTS = EXPANSION_KEYS.reduce((sum, key) => sum + HEADER_INTS[key], 0);

/** The first of `key`'s `count` header slots, counted from the start of the expansions' slots;
 * throws when the module asks for more than its block holds. */
export function headerBlock(key: ExpansionKey, count: number): number {
  if (count !== HEADER_INTS[key]) throw new Error(`expansion ${key} keeps ${HEADER_INTS[key]} header slots, not ${count}`);
  let offset = 0;
  for (const k of EXPANSION_KEYS) {
    if (k === key) return offset;
    offset += HEADER_INTS[k];
  }
  return offset;
}

// Figure kinds, in the order of a figure-spot's figure bits (rules.ts's `figureSpot`) and of the
// supplies in the header (state.ts's H_SUPPLY): the base game's follower, then the expansions'.
/** Each figure's name in moves and records (`figure: "large"`). */
export const FIGURE_NAMES = ['follower', 'large', 'abbot'] as const;
export type FigureName = (typeof FIGURE_NAMES)[number];
export const FIGURE_FOLLOWER = 0;
/** Inns & Cathedrals' large follower. */
export const FIGURE_LARGE = 1;
/** The Abbot's abbot. */
export const FIGURE_ABBOT = 2;
export const FIGURE_KINDS = FIGURE_NAMES.length;
/** What each figure adds to its player's strength on a feature: the large follower counts two. An
 * abbot stands alone on a monastery or garden (no second figure can join it), so its 1 only makes
 * its owner the scorer. */
export const FIGURE_STRENGTH: readonly number[] = [1, 2, 1];
