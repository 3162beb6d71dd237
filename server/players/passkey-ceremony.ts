// The passkey ceremony (WebAuthn, through @simplewebauthn/server): the relying party a request
// reaches, a challenge issued and taken once, adding a passkey to the signed-in player, and
// signing in with one on another device (discoverable: one prompt, no name asked). Each step is a
// named method, so a trace or a stack names the step it is in. Every failure gets one answer
// (`passkey_refused`), so a reply never tells whether a credential exists.

import { generateKeyPairSync } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { coseP256 } from '../players/cose.ts';
import { passkeyRefused } from '../players/refusals.ts';
import type { PlayerStore, Challenge, Passkey, Player, SessionRow } from '../players/store.ts';
import { CodedError } from '../errors.ts';

/** How long a challenge waits for its answer. */
const CHALLENGE_MS = 5 * 60_000;

/** A P-256 public key (COSE) whose private half is thrown away at boot. */
const NOBODYS_KEY = coseP256(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey);

/** The transports WebAuthn names (its AuthenticatorTransport, and the newer cable and smart-card). */
const TRANSPORTS: ReadonlySet<unknown> = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** The site a passkey belongs to: the origin browsers reach this server at, and its host name. */
export interface RelyingParty {
  origin: string;
  id: string;
}

/** The player adding a passkey: the one signed in. */
export interface PasskeyHolder {
  id: string;
  name: string;
}

/** The relying party at `origin` (configured, else built from the Host header: the client's to
 * get right, so a host that is not one is `bad_request`). */
export function relyingParty(origin: string): RelyingParty {
  const url = URL.parse(origin);
  if (!url) throw new CodedError('bad_request', 'the Host header does not name a host (set TESSERA_PUBLIC_ORIGIN behind a proxy)');
  return { origin, id: url.hostname };
}

export class PasskeyCeremony {
  private readonly players: PlayerStore;

  constructor(players: PlayerStore) {
    this.players = players;
  }

  /** Options for adding a passkey to `player` (for the browser's startRegistration), their
   * challenge stored for this player. */
  async registrationOptions(rp: RelyingParty, player: PasskeyHolder): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const options = await generateRegistrationOptions({
      rpName: 'Tessera',
      rpID: rp.id,
      userName: player.name,
      userID: new TextEncoder().encode(player.id),
      attestationType: 'none',
      excludeCredentials: (await this.players.passkeys(player.id)).map((k) => ({ id: k.id, transports: k.transports })),
      // Discoverable: another device signs in with one prompt, no name asked.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await this.players.putChallenge({ challenge: options.challenge, playerId: player.id, expiresAt: Date.now() + CHALLENGE_MS });
    return options;
  }

  /** Verifies startRegistration's answer and stores the passkey as `player`'s. A credential
   * registered already (to this player or another) is refused by the store. */
  async register(rp: RelyingParty, player: PasskeyHolder, answer: RegistrationResponseJSON): Promise<void> {
    await this.players.addPasskey(await this.verifyRegistration(rp, player, answer));
  }

  /** Options for signing in with a passkey (for startAuthentication), their challenge stored for
   * nobody: the passkey names its player. */
  async signInOptions(rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred' });
    await this.players.putChallenge({ challenge: options.challenge, playerId: null, expiresAt: Date.now() + CHALLENGE_MS });
    return options;
  }

  /** Verifies startAuthentication's answer; then, in one transaction, the passkey's counter, the
   * new session for its player and the browser's previous session (`replaces`) ended. */
  async signIn(rp: RelyingParty, answer: AuthenticationResponseJSON, session: Omit<SessionRow, 'playerId'>, replaces: string | null): Promise<Player> {
    const { passkey, counter } = await this.verifySignIn(rp, answer);
    const player = await this.players.player(passkey.playerId);
    // The player may be deleted (passkeys and all) at any point until the sign-in's transaction.
    if (!player || !(await this.players.signIn(passkey.id, counter, { ...session, playerId: player.id }, replaces))) throw passkeyRefused();
    return player;
  }

  /** The passkey a registration answer proves, for `player`, or `passkey_refused`. */
  private async verifyRegistration(rp: RelyingParty, player: PasskeyHolder, answer: RegistrationResponseJSON): Promise<Passkey> {
    const verified = await verifyRegistrationResponse({
      response: answer,
      expectedChallenge: (challenge) => this.takeChallenge(challenge, (c) => c.playerId === player.id),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    }).catch(() => null);
    if (!verified?.verified) throw passkeyRefused();
    const { credential } = verified.registrationInfo;
    return {
      id: credential.id,
      playerId: player.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: knownTransports(credential.transports),
      createdAt: new Date().toISOString(),
    };
  }

  /** The stored passkey a sign-in answer proves, with its new counter, or `passkey_refused`. An
   * unknown credential is verified too, against a key nobody holds: the answer takes the same
   * path and time whether the credential exists or not, and uses up its challenge. */
  private async verifySignIn(rp: RelyingParty, answer: AuthenticationResponseJSON): Promise<{ passkey: Passkey; counter: number }> {
    const passkey = await this.players.passkey(answer.id);
    const verified = await verifyAuthenticationResponse({
      response: answer,
      expectedChallenge: (challenge) => this.takeChallenge(challenge, (c) => c.playerId === null),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: passkey
        ? { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: passkey.transports }
        : { id: answer.id, publicKey: NOBODYS_KEY, counter: 0 },
      requireUserVerification: false,
    }).catch(() => null);
    if (!passkey || !verified?.verified || !namesOwner(answer, passkey.playerId)) throw passkeyRefused();
    return { passkey, counter: verified.authenticationInfo.newCounter };
  }

  /** A challenge this server issued, unexpired, for this purpose: taken once whatever follows. */
  private async takeChallenge(challenge: string, fits: (c: Challenge) => boolean): Promise<boolean> {
    const taken = await this.players.takeChallenge(challenge, Date.now());
    return taken !== undefined && fits(taken);
  }
}

/** Whether the assertion's user handle (unsigned: the client's to fill) names the credential's
 * player. No user was named before the prompt, so WebAuthn requires it present and matching. */
function namesOwner(answer: AuthenticationResponseJSON, playerId: string): boolean {
  const handle = answer.response.userHandle;
  return typeof handle === 'string' && Buffer.from(handle, 'base64url').toString('utf8') === playerId;
}

/** The answer's transports are the client's to fill: only WebAuthn's are kept (anything else
 * would be sent back in every excludeCredentials, and PostgreSQL's jsonb refuses a "\u0000"). */
function knownTransports(sent: unknown): string[] {
  return Array.isArray(sent) ? [...new Set(sent.filter((t) => TRANSPORTS.has(t)))] : [];
}
