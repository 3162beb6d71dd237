// Passkeys in the browser (@simplewebauthn/browser over the server's options and answers): adding
// one to the player, signing in with one made on another device (one prompt, no name asked), and
// words for what went wrong. Used by #/me (me-page.ts) and the player bar's "Sign in".

import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import { playerApi } from './player-api.ts';
import { HttpError } from '../api.ts';
import { type SessionState, ensurePlayer, reloadSession, updatePlayer } from './session.ts';

export const passkeysWork = (): boolean => browserSupportsWebAuthn();

/** Registers a passkey of this device to the player (made now if this browser has none). */
export async function addPasskey(): Promise<void> {
  await ensurePlayer();
  const answer = await startRegistration({ optionsJSON: await playerApi.registrationOptions() });
  updatePlayer(await playerApi.register(answer));
}

/** One passkey prompt; this browser then plays as the passkey's player. */
export async function signInWithPasskey(): Promise<SessionState> {
  const answer = await startAuthentication({ optionsJSON: await playerApi.authenticationOptions() });
  await playerApi.authenticate(answer);
  return reloadSession();
}

/** Words for a failed passkey or player action: a prompt closed is not an error. */
export function passkeyProblem(e: unknown): string {
  if (e instanceof WebAuthnError && e.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'This device already holds a passkey for this player.';
  if (e instanceof Error && (e.name === 'NotAllowedError' || e.name === 'AbortError')) return 'The passkey prompt was closed: nothing changed.';
  if (e instanceof WebAuthnError) return `The passkey did not work: ${e.message}`;
  if (e instanceof HttpError && e.status === 429) return 'Too many tries: wait a minute and try again.';
  if (e instanceof HttpError) return e.message;
  return 'Could not reach the server: nothing changed.';
}
