// The player this browser plays as: asked for once per page load, made (a guest, under the name
// typed) the first time one is needed (taking a seat, choosing a name, adding a passkey) and never
// just for opening a page, since each new session is a new player (docs/PROTOCOL.md §9); changed
// by renaming, signing in with a passkey, signing out or deleting. No sign-up, no extra click.
// Pages listen for changes instead of asking again.

import { type Player, playerApi } from './player-api.ts';
import { HttpError } from '../api.ts';

/** `none`: the server keeps players, this browser has none yet. `unavailable`: the server keeps
 * no players (an older one): the client plays as before, a name per game. */
export type SessionState = { kind: 'loading' } | { kind: 'unavailable' } | { kind: 'none' } | { kind: 'player'; player: Player };

let state: SessionState = { kind: 'loading' };
let started: Promise<unknown> | null = null;
const listeners = new Set<(s: SessionState) => void>();

export const sessionState = (): SessionState => state;

/** The signed-in player, or null (still loading, none yet, or no players on this server). */
export const currentPlayer = (): Player | null => (state.kind === 'player' ? state.player : null);

/** Calls `fn` on every change; returns the unsubscribe. */
export function onSessionChange(fn: (s: SessionState) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function set(next: SessionState): SessionState {
  state = next;
  for (const fn of listeners) fn(state);
  return state;
}

/** The session, asked for once per page load. It resolves to the state as it is now, not as
 * first loaded: a rename may have come since. */
export function startSession(): Promise<SessionState> {
  started ??= playerApi.session().then(
    (player) => set(player ? { kind: 'player', player } : { kind: 'none' }),
    () => set({ kind: 'unavailable' }),
  );
  return started.then(() => state);
}

/** Asks the server again (after signing in, out or deleting: the cookie changed). */
export async function reloadSession(): Promise<SessionState> {
  started = null;
  return startSession();
}

/** The player as the server just answered it (a rename, a passkey added). */
export function updatePlayer(player: Player): void {
  set({ kind: 'player', player });
}

/** The player, made now as a guest (under `name` when given) if this browser has none yet; null
 * on a server without players. A refused name throws (HttpError `name_taken`, `name_invalid`). */
export async function ensurePlayer(name?: string): Promise<Player | null> {
  const s = await startSession();
  if (s.kind === 'player') return s.player;
  if (s.kind !== 'none') return null;
  const player = await playerApi.startSession(name);
  if (player) updatePlayer(player);
  return player;
}

let claiming: { name: string; done: Promise<string | null> } | null = null;

/** Makes `name` the player's (names are unique among players), making the player first if there
 * is none: null once it is, else the words why not. Without players (an older server) every name
 * goes. One request per name at a time: the field's change and the form's submit come together. */
export function claimName(name: string): Promise<string | null> {
  if (claiming?.name === name) return claiming.done;
  const done = nameClaimed(name).finally(() => {
    if (claiming?.done === done) claiming = null;
  });
  claiming = { name, done };
  return done;
}

async function nameClaimed(name: string): Promise<string | null> {
  try {
    const player = currentPlayer() ?? (await ensurePlayer(name));
    if (player && player.name !== name) updatePlayer(await playerApi.rename(name));
    return null;
  } catch (e) {
    return nameProblem(e);
  }
}

/** Words for a refused name, shown next to the name field. */
export function nameProblem(e: unknown): string {
  if (e instanceof HttpError && e.code === 'name_taken') return 'That name is taken: choose another.';
  if (e instanceof HttpError && e.code === 'name_invalid') return e.message || 'Names are 1 to 24 letters, digits or spaces.';
  if (e instanceof HttpError && e.status === 429) return 'Too many changes at once: try again in a minute.';
  return 'Could not save the name: the server did not answer.';
}
