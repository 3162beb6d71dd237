// The player this browser plays as, known once per page load: asked for on start, made as a
// guest at once when there is none (no sign-up, no click), changed by renaming, signing in with
// a passkey, signing out or deleting. Pages listen for changes instead of asking again.

import { type Player, accountApi } from './account-api.ts';
import { HttpError, savedName } from './api.ts';

/** `unavailable`: this server has no players (an older server): the client plays as before. */
export type SessionState = { kind: 'loading' } | { kind: 'unavailable' } | { kind: 'player'; player: Player };

let state: SessionState = { kind: 'loading' };
let started: Promise<SessionState> | null = null;
const listeners = new Set<(s: SessionState) => void>();

export const sessionState = (): SessionState => state;

/** The signed-in player, or null (still loading, or no players on this server). */
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

/** The session, asked for once per page load; a guest player is made when there is none. It
 * resolves to the state as it is now, not as first loaded: a rename may have come since. */
export function startSession(): Promise<SessionState> {
  started ??= (async () => {
    try {
      const player = (await accountApi.session()) ?? (await newGuest());
      return set(player ? { kind: 'player', player } : { kind: 'unavailable' });
    } catch {
      return set({ kind: 'unavailable' });
    }
  })();
  return started.then(() => state);
}

/** A new guest keeps the name this browser played under before players existed, if it is free;
 * otherwise the server names it. */
async function newGuest(): Promise<Player | null> {
  const name = savedName();
  if (name) {
    try {
      return await accountApi.startSession(name);
    } catch (e) {
      if (!(e instanceof HttpError && (e.code === 'name_taken' || e.code === 'name_invalid'))) throw e;
    }
  }
  return accountApi.startSession();
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

let claiming: { name: string; done: Promise<string | null> } | null = null;

/** Makes `name` the player's (names are unique among players): null once it is, else the words
 * why not. Without players (an older server) every name goes. One request per name at a time:
 * the field's change and the form's submit come together. */
export function claimName(name: string): Promise<string | null> {
  const player = currentPlayer();
  if (!player || name === player.name) return Promise.resolve(null);
  if (claiming?.name === name) return claiming.done;
  const done = accountApi.rename(name).then(
    (renamed) => {
      updatePlayer(renamed);
      return null;
    },
    (e: unknown) => nameProblem(e),
  );
  claiming = { name, done };
  return done;
}

/** Words for a refused name, shown next to the name field. */
export function nameProblem(e: unknown): string {
  if (e instanceof HttpError && e.code === 'name_taken') return 'That name is taken: choose another.';
  if (e instanceof HttpError && e.code === 'name_invalid') return e.message || 'Names are 1 to 32 letters, digits or spaces.';
  if (e instanceof HttpError && e.status === 429) return 'Too many changes at once: try again in a minute.';
  return 'Could not save the name: the server did not answer.';
}
