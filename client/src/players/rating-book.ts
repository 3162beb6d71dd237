// The ratings shown beside names (lobby lists, the game's players panel, the end screen): views
// carry each seat's player id, not its rating, so the ratings are asked for by id
// (GET /api/ratings, six a call), kept for the page, and drawn where a name is. A badge drawn
// before its rating arrived is a placeholder that `fillRatings` completes.

import { playerApi, type ShownRating } from './player-api.ts';
import { RATINGS_PER_CALL } from '../protocol.ts';
import { ratingBadge } from './player-text.ts';

const known = new Map<string, ShownRating>();
/** Asked for and without a rating (never in a rated game): not asked again unless fresh. */
const unrated = new Set<string>();
const listeners = new Set<() => void>();

export const shownRating = (playerId: string | null | undefined): ShownRating | null => (playerId ? (known.get(playerId) ?? null) : null);

/** The rating beside a name: drawn now when known, else a placeholder for `fillRatings`. */
export function seatRatingBadge(playerId: string | null | undefined): string {
  if (!playerId) return '';
  const r = known.get(playerId);
  return r ? ratingBadge(r.rating, r.provisional) : `<span class="rating-slot" data-rating-for="${encodeURIComponent(playerId)}"></span>`;
}

/** Completes the placeholders in `root` whose ratings have arrived. */
export function fillRatings(root: ParentNode): void {
  for (const slot of root.querySelectorAll<HTMLElement>('[data-rating-for]')) {
    const r = known.get(decodeURIComponent(slot.dataset.ratingFor!));
    if (r) slot.outerHTML = ratingBadge(r.rating, r.provisional);
  }
}

/** Calls `fn` when ratings arrive; returns the unsubscribe. */
export function onRatings(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Asks for the ratings of `ids` not known yet (all of them with `fresh`: a rated game just
 * ended and moved them). A failure leaves the names without ratings. */
export async function loadRatings(ids: Iterable<string>, fresh = false): Promise<void> {
  const wanted = [...new Set(ids)].filter((id) => fresh || !(known.has(id) || unrated.has(id)));
  if (!wanted.length) return;
  const batches: string[][] = [];
  for (let i = 0; i < wanted.length; i += RATINGS_PER_CALL) batches.push(wanted.slice(i, i + RATINGS_PER_CALL));
  const answers = await Promise.all(batches.map((batch) => playerApi.ratings(batch).catch((): ShownRating[] => [])));
  for (const id of wanted) unrated.add(id);
  for (const r of answers.flat()) {
    known.set(r.playerId, r);
    unrated.delete(r.playerId);
  }
  for (const fn of listeners) fn();
}
