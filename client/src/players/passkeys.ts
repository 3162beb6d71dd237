// Passkeys in the browser (@simplewebauthn/browser over the server's options and answers): adding
// one to the player, signing in with one made on another device (one prompt, no name asked), and
// words for what went wrong. Used by the account page and the account bar's "Sign in".

import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import { accountApi } from './account-api.ts';
import { HttpError } from './api.ts';
import { type SessionState, ensurePlayer, reloadSession, updatePlayer } from './session.ts';

export const passkeysWork = (): boolean => browserSupportsWebAuthn();

/** Registers a passkey of this device to the player (made now if this browser has none). */
export async function addPasskey(): Promise<void> {
  await ensurePlayer();
  const answer = await startRegistration({ optionsJSON: await accountApi.registrationOptions() });
  updatePlayer(await accountApi.register(answer));
}

/** One passkey prompt; this browser then plays as the passkey's player. */
export async function signInWithPasskey(): Promise<SessionState> {
  const answer = await startAuthentication({ optionsJSON: await accountApi.authenticationOptions() });
  await accountApi.authenticate(answer);
  return reloadSession();
}

/** Words for a failed passkey or account action: a prompt closed is not an error. */
export function passkeyProblem(e: unknown): string {
  if (e instanceof WebAuthnError && e.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'This device already holds a passkey for this player.';
  if (e instanceof Error && (e.name === 'NotAllowedError' || e.name === 'AbortError')) return 'The passkey prompt was closed: nothing changed.';
  if (e instanceof WebAuthnError) return `The passkey did not work: ${e.message}`;
  if (e instanceof HttpError && e.status === 429) return 'Too many tries: wait a minute and try again.';
  if (e instanceof HttpError) return e.message;
  return 'Could not reach the server: nothing changed.';
}
