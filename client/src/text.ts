// Words for things: seats, spots, scorings, moves.

import { EXPANSION_TILES, type ExpansionTileDef } from '../../bot-engine/expansion-tiles.ts';
import { KIND_CITY, KIND_GARDEN, KIND_MONASTERY, KIND_ROAD } from '../../bot-engine/tiles.ts';
import { PLAYER_GLYPH_NAMES, spotDirection } from './art.ts';
import type { ExpansionKey } from '../../bot-engine/game.ts';
import { BOT_DISPLAY_NAMES, BOT_LEVELS, type ClockView, type LastMove, type Rules, type ScoreEvent, type SeatView } from './protocol.ts';

const DIR: Record<string, string> = { N: 'north', E: 'east', S: 'south', W: 'west', NE: 'north-east', SE: 'south-east', SW: 'south-west', NW: 'north-west' };
const KIND: Record<string, string> = { city: 'Knight in the city', road: 'Thief on the road', field: 'Farmer in the field', monastery: 'Monk in the monastery', garden: 'Abbot in the garden' };
const SHORT: Record<string, string> = { city: 'city', road: 'road', field: 'field', monastery: 'monastery', garden: 'garden' };

/** "city:N" → "city (north)"; with the tile, the direction is where the spot is drawn. Long, it
 * names the figure there: "Knight in the city", or with the abbot "Abbot in the monastery". */
export function spotLabel(spot: string, long = false, tile?: { tile: string; rotation: number; figure?: string }): string {
  const [kind, dir] = spot.split(':');
  const seen = tile ? spotDirection(tile.tile, tile.rotation, spot) : '';
  const where = kind === 'monastery' || kind === 'garden' ? '' : seen ? ` (${seen})` : dir ? ` (${DIR[dir] ?? dir})` : '';
  const what = tile?.figure === 'abbot' ? `Abbot in the ${SHORT[kind] ?? kind}` : (KIND[kind] ?? kind);
  return `${long ? what : (SHORT[kind] ?? kind)}${where}`;
}

/** Bots get a person's name by seat (the server calls them "greedy bot 2", and keeps these names
 * from people); the level goes with the name wherever a player reads who they are up against. */
export function seatName(seats: SeatView[] | undefined, i: number): string {
  const s = seats?.[i];
  if (!s) return `Seat ${i + 1}`;
  if (s.kind === 'bot') return BOT_DISPLAY_NAMES[i] ?? `Bot ${i + 1}`;
  if (s.name) return s.name;
  return `Open seat ${i + 1}`;
}

/** "Bertha (greedy bot)": a bot's name with its level, a person's name as it is. */
export function seatLabel(seats: SeatView[] | undefined, i: number): string {
  const s = seats?.[i];
  return s?.kind === 'bot' ? `${seatName(seats, i)} (${s.level ?? '?'} bot)` : seatName(seats, i);
}

/** The server names a bot's seat "greedy bot 3" (level, seat number) in records and profiles. */
const RECORDED_BOT = /^([a-z]+) bot (\d+)$/;

/** A seat of a finished game as recorded (the replay's names, a profile's players): a bot gets
 * the name it had in the game, with its level ("Hugo (greedy bot)"); a person keeps theirs. */
export function recordedName(name: string, seat: number, player?: { kind?: string; level?: string }): string {
  const m = RECORDED_BOT.exec(name);
  const level = player?.kind === 'bot' ? (player.level ?? m?.[1]) : m && Number(m[2]) === seat + 1 && (BOT_LEVELS as readonly string[]).includes(m[1]) ? m[1] : null;
  return level ? `${BOT_DISPLAY_NAMES[seat] ?? `Bot ${seat + 1}`} (${level} bot)` : name;
}

export function seatRole(s: SeatView): string {
  if (s.kind === 'bot') return `bot · ${s.level ?? '?'}`;
  if (s.standIn === 'dropped') return 'person · dropped after missed moves: a bot plays the seat';
  if (s.standIn) return `person · a bot stands in (${s.standIn === 'clock' ? 'time ran out' : 'away'})`;
  if (!s.name) return 'open seat';
  return s.connected ? 'person · online' : 'person · away';
}

export function glyphName(seat: number): string {
  return PLAYER_GLYPH_NAMES[seat] ?? '';
}

export function names(seats: SeatView[] | undefined, players: number[]): string {
  const n = players.map((p) => seatName(seats, p));
  return n.length <= 1 ? (n[0] ?? 'nobody') : `${n.slice(0, -1).join(', ')} and ${n[n.length - 1]}`;
}

const FEATURE: Record<ScoreEvent['kind'], string> = { city: 'city', road: 'road', monastery: 'monastery', farm: 'farm' };

export function eventText(e: ScoreEvent, seats: SeatView[] | undefined): string {
  const unit = e.kind === 'farm' ? `${e.tiles} completed ${e.tiles === 1 ? 'city' : 'cities'}` : `${e.tiles} ${e.tiles === 1 ? 'tile' : 'tiles'}`;
  const who = e.players.length ? names(seats, e.players) : 'Nobody';
  const verb = e.players.length > 1 ? 'score' : 'scores';
  const feature = e.garden ? 'garden' : FEATURE[e.kind];
  const done = e.phase === 'final' && e.kind !== 'farm' ? `unfinished ${feature}` : e.kind === 'farm' ? 'farm' : `completed ${feature}`;
  const modifier = e.inn ? ' with an inn' : e.cathedral ? ' with a cathedral' : '';
  return `${who} ${verb} ${e.points} for ${/^[aeiou]/.test(done) ? 'an' : 'a'} ${done}${modifier} (${unit})`;
}

/** Tiles in words, by type letter (the letters are the rules' notation, not the player's). */
const TILE_WORDS: Record<string, string> = {
  A: 'monastery with a road',
  B: 'monastery',
  C: 'walled city on all four sides (pennant)',
  D: 'city edge with a straight road',
  E: 'city edge',
  F: 'city across the tile (pennant)',
  G: 'city across the tile',
  H: 'two city edges on opposite sides',
  I: 'two city edges on neighbouring sides',
  J: 'city edge with a road bending right',
  K: 'city edge with a road bending left',
  L: 'city edge with a three-way crossroads',
  M: 'city corner (pennant)',
  N: 'city corner',
  O: 'city corner with a road bend (pennant)',
  P: 'city corner with a road bend',
  Q: 'three-sided city (pennant)',
  R: 'three-sided city',
  S: 'three-sided city with a road (pennant)',
  T: 'three-sided city with a road',
  U: 'straight road',
  V: 'road bend',
  W: 'three-way crossroads',
  X: 'four-way crossroads',
};

const COUNT = ['', 'one', 'two', 'three', 'four'];
const withArticle = (w: string) => (/^(two|three|four) /.test(w) ? w : `${/^[aeiou]/.test(w) ? 'an' : 'a'} ${w}`);

/** An expansion tile in words, from its table row: "straight river with a city and a road",
 * "city with a cathedral", "road bend with a garden" (a garden twin: its base tile's words). */
function expansionWords(def: ExpansionTileDef): string {
  const has = (kind: number) => def.segments.filter((seg) => seg.kind === kind);
  if (def.name.endsWith('g') && TILE_WORDS[def.name.slice(0, -1)]) return `${TILE_WORDS[def.name.slice(0, -1)]} with a garden`;
  const run = def.river[0];
  const river = !run ? null : run.length === 1 ? (def.name === 'RA' ? 'river spring' : 'river lake') : (run[1] - run[0]) % 2 === 0 ? 'straight river' : 'river bend';
  const cities = has(KIND_CITY);
  const roads = has(KIND_ROAD);
  const cityWords = !cities.length
    ? null
    : `${cities.length === 1 ? 'city' : `${COUNT[cities.length]} cities`}${cities.some((c) => c.cathedral) ? ' with a cathedral' : ''}${cities.some((c) => c.pennant) ? ' (pennant)' : ''}`;
  const inns = roads.filter((r) => r.inn).length;
  const roadWords = !roads.length ? null : `${roads.length === 1 ? 'road' : `${COUNT[roads.length]} roads`}${inns ? ' with an inn' : ''}`;
  const parts = [river, cityWords, roadWords, has(KIND_MONASTERY).length ? 'monastery' : null, has(KIND_GARDEN).length ? 'garden' : null].filter((w): w is string => !!w);
  const [first, ...rest] = parts;
  if (!rest.length) return first;
  const listed = rest.map(withArticle);
  return `${first} with ${listed.length > 1 ? `${listed.slice(0, -1).join(', ')} and ${listed.at(-1)}` : listed[0]}`;
}

const EXPANSION_WORDS: Record<string, string> = Object.fromEntries(EXPANSION_TILES.map((def) => [def.name, expansionWords(def)]));

/** "city edge with a straight road"; `article` puts "a"/"an" before it ("a tile with" before
 * the plural "two city edges…", which would read as two tiles). */
export function tileWords(tile: string | null | undefined, article = false): string {
  const w = (tile && (TILE_WORDS[tile] ?? EXPANSION_WORDS[tile])) || 'tile';
  if (!article) return w;
  return /^two /.test(w) ? `a tile with ${w}` : `${/^[aeiou]/.test(w) ? 'an' : 'a'} ${w}`;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a move did, in words: no letters, no coordinates (moveWhere has those for the detail). */
const FIGURE_WORDS = { follower: 'a follower', large: 'a large follower', abbot: 'the abbot' } as const;

export function moveText(last: LastMove, seats: SeatView[] | undefined): string {
  const m = last.move;
  const figure = m.meeple
    ? ` with ${FIGURE_WORDS[m.figure ?? 'follower']} on the ${spotLabel(m.meeple, false, { tile: last.tile, rotation: m.rotation })}`
    : m.returnAbbot
      ? ' and took the abbot back'
      : '';
  return `${seatName(seats, last.seat)} placed ${tileWords(last.tile, true)}${figure}`;
}

/** Where a move went, for the log's detail and the replay: "tile U at (-3, -4), turned 90°". */
export function moveWhere(last: Pick<LastMove, 'tile' | 'move'>): string {
  const m = last.move;
  return `tile ${last.tile} at (${m.x}, ${m.y})${m.rotation ? `, turned ${m.rotation}°` : ''}`;
}

/** The expansions' names, in the order the create form offers them. */
export const EXPANSION_NAMES: Readonly<Record<ExpansionKey, string>> = { innsCathedrals: 'Inns & Cathedrals', river: 'the River', abbot: 'the Abbot' };

/** "Inns & Cathedrals · small cities · farmers 3rd": a game's options in one line. */
/** A game's pace as shown in lists and on the table: "turn-based · 3 days a move", or "live". */
export function paceText(clock: Pick<ClockView, 'pace'> | undefined): string {
  const pace = clock?.pace;
  return pace ? `turn-based · ${pace.moveDays} ${pace.moveDays === 1 ? 'day' : 'days'} a move` : 'live';
}

/** Time left on a turn-based move: days and hours, or hours and minutes once under a day. */
export function timeLeftText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  return hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

export function rulesText(rules: Partial<Rules> | undefined): string {
  const expansions = (Object.keys(EXPANSION_NAMES) as ExpansionKey[]).filter((k) => rules?.[k]).map((k) => EXPANSION_NAMES[k]);
  return [...expansions, ...(rules?.tinyCity ? ['small cities'] : []), `farmers ${rules?.farmers ?? '3rd'}`].join(' · ');
}
