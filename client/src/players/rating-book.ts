// The ratings shown beside names (lobby lists, the game's players panel, the end screen): views
// carry each seat's player id, not its rating, so the ratings are asked for by id
// (GET /api/ratings, six a call), kept for the page, and drawn where a name is. A badge drawn
// before its rating arrived is a placeholder that `fillRatings` completes.

import { playerApi, type ShownRating } from './player-api.ts';
import { RATINGS_PER_CALL } from '../protocol.ts';
import { ratingBadge, ratingChangeBadge } from './player-text.ts';

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
  for (const slot of root.querySelectorAll<HTMLElement>('[data-change-for]')) {
    const c = changes.get(changeKey(decodeURIComponent(slot.dataset.game!), decodeURIComponent(slot.dataset.changeFor!)));
    if (c) slot.outerHTML = ratingChangeBadge(c.before, c.after);
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

/** Rating changes in one game, by `gameId|playerId`, from each player's history. */
const changes = new Map<string, { before: number; after: number }>();
const changeKey = (gameId: string, playerId: string) => `${gameId}|${playerId}`;

/** The change a game made to a player's rating beside their rating: drawn now when known, else a
 * placeholder for `fillRatings`. */
export function seatRatingChange(gameId: string, playerId: string | null | undefined): string {
  if (!playerId) return '';
  const c = changes.get(changeKey(gameId, playerId));
  return c ? ratingChangeBadge(c.before, c.after) : `<span class="rating-slot" data-change-for="${encodeURIComponent(playerId)}" data-game="${encodeURIComponent(gameId)}"></span>`;
}

/** Asks each player's rating history for the change `gameId` made (a rated game that ended):
 * the server writes it as the game ends, so a history without it yet is asked again, a little
 * later, a few times. */
export async function loadRatingChanges(gameId: string, ids: Iterable<string>, tries = 4): Promise<void> {
  let wanted = [...new Set(ids)].filter((id) => !changes.has(changeKey(gameId, id)));
  for (let attempt = 0; attempt < tries && wanted.length; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, 1000 * attempt));
    const found = await Promise.all(
      wanted.map((id) =>
        playerApi.ratingHistory(id).then(
          (h) => h.find((c) => c.gameId === gameId) ?? null,
          () => null,
        ),
      ),
    );
    wanted.forEach((id, i) => {
      const c = found[i];
      if (c) changes.set(changeKey(gameId, id), { before: c.before, after: c.after });
    });
    if (found.some(Boolean)) for (const fn of listeners) fn();
    wanted = wanted.filter((_, i) => !found[i]);
  }
}
