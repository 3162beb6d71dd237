// Words for things: seats, spots, scorings, moves.

import { PLAYER_GLYPH_NAMES, spotDirection } from './art.ts';
import type { LastMove, ScoreEvent, SeatView } from './protocol.ts';

const DIR: Record<string, string> = { N: 'north', E: 'east', S: 'south', W: 'west', NE: 'north-east', SE: 'south-east', SW: 'south-west', NW: 'north-west' };
const KIND: Record<string, string> = { city: 'Knight in the city', road: 'Thief on the road', field: 'Farmer in the field', monastery: 'Monk in the monastery' };
const SHORT: Record<string, string> = { city: 'city', road: 'road', field: 'field', monastery: 'monastery' };

/** "city:N" → "city (north)"; with the tile, the direction is where the spot is drawn. */
export function spotLabel(spot: string, long = false, tile?: { tile: string; rotation: number }): string {
  const [kind, dir] = spot.split(':');
  const seen = tile ? spotDirection(tile.tile, tile.rotation, spot) : '';
  const where = kind === 'monastery' ? '' : seen ? ` (${seen})` : dir ? ` (${DIR[dir] ?? dir})` : '';
  return `${long ? (KIND[kind] ?? kind) : (SHORT[kind] ?? kind)}${where}`;
}

export function seatName(seats: SeatView[] | undefined, i: number): string {
  const s = seats?.[i];
  if (!s) return `Seat ${i + 1}`;
  if (s.name) return s.name;
  return s.kind === 'bot' ? `${s.level ?? ''} bot`.trim() : `Open seat ${i + 1}`;
}

export function seatRole(s: SeatView): string {
  if (s.kind === 'bot') return `bot · ${s.level ?? '?'}`;
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
  const done = e.phase === 'final' && e.kind !== 'farm' ? `unfinished ${FEATURE[e.kind]}` : e.kind === 'farm' ? 'farm' : `completed ${FEATURE[e.kind]}`;
  return `${who} ${verb} ${e.points} for ${/^[aeiou]/.test(done) ? 'an' : 'a'} ${done} (${unit})`;
}

export function moveText(last: LastMove, seats: SeatView[] | undefined): string {
  const m = last.move;
  const follower = m.meeple ? ` with a follower on the ${spotLabel(m.meeple, false, { tile: last.tile, rotation: m.rotation })}` : '';
  return `${seatName(seats, last.seat)} placed ${last.tile} at (${m.x}, ${m.y})${m.rotation ? ` turned ${m.rotation}°` : ''}${follower}`;
}
