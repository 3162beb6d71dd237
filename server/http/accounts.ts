// The player API: a guest session at once, the player's name, deleting the player, passkeys
// (add one; sign in with one on another device: one prompt, no name asked) and the player's games.
// Every passkey failure gets one answer, so a reply never tells whether a credential exists.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { generateKeyPairSync } from 'node:crypto';
import { coseP256 } from '../accounts/cose.ts';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { DELETED_NAME, guestName, validName } from '../accounts/names.ts';
import { passkeyRefused } from '../accounts/refusals.ts';
import { type Challenge, newPlayerId } from '../accounts/store.ts';
import { CodedError } from '../errors.ts';
import { isDamaged, type ListedGame } from '../games/store.ts';
import { Me, type MyGame, MyGames, MyGamesQuery, PasskeyAnswer, PasskeyOptions, RenameBody, SessionReply, StartSessionBody } from '../wire/accounts.ts';
import { carriedSession, clearSession, newSession, ownOrigin, sendSession, signedIn } from './session.ts';

const error = { $ref: 'Error#' } as const;
const CHALLENGE_MS = 5 * 60_000;

/** A P-256 public key (COSE) whose private half is thrown away at boot. */
const NOBODYS_KEY = coseP256(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey);

async function routes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts, config, store, games } = app;
  const limited = { rateLimit: { max: config.createsPerMinute, timeWindow: 60_000 } };
  const relyingParty = (request: FastifyRequest) => {
    const origin = ownOrigin(request, config);
    // Without TESSERA_PUBLIC_ORIGIN the origin is built from the Host header: the client's to get right.
    const url = URL.parse(origin);
    if (!url) throw new CodedError('bad_request', 'the Host header does not name a host (set TESSERA_PUBLIC_ORIGIN behind a proxy)');
    return { origin, id: url.hostname };
  };
  const me = async (player: { id: string; name: string }): Promise<Me> => ({ id: player.id, name: player.name, passkeys: (await accounts.passkeys(player.id)).length });

  app.get('/api/session', { schema: { tags: ['players'], summary: 'The player this browser is signed in as, or null', response: { 200: SessionReply } } }, async (request) => ({
    player: request.player && (await me(request.player)),
  }));

  app.post(
    '/api/session',
    {
      schema: {
        tags: ['players'],
        summary: 'Start a guest player and its session cookie (with `name`, or "Guest" and digits, which need not be unique); already signed in: that player, unchanged',
        body: StartSessionBody,
        response: { 200: SessionReply, 201: SessionReply, 400: error, 403: error, 409: error, 429: error, 503: error },
      },
      config: limited,
      // No body at all is the plain "make me a guest".
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      if (request.player) return { player: await me(request.player) };
      // A guest's default name is not unique (names.ts): only a chosen one can be taken.
      const name = request.body.name === undefined ? guestName() : validName(request.body.name);
      const player = { id: newPlayerId(), name, createdAt: new Date().toISOString() };
      const { id, hash, expiresAt } = newSession();
      await accounts.createPlayer(player, { hash, expiresAt, playerId: player.id });
      sendSession(reply, request, config, id);
      return reply.code(201).send({ player: { id: player.id, name, passkeys: 0 } });
    },
  );

  app.post(
    '/api/session/sign-out',
    { schema: { tags: ['players'], summary: "End this browser's session (a guest without a passkey cannot come back)", response: { 204: { type: 'null' }, 403: error } } },
    async (request, reply) => {
      const hash = carriedSession(request);
      if (hash) await accounts.endSession(hash);
      clearSession(reply, request, config);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/api/me',
    {
      schema: {
        tags: ['players'],
        summary: "Change the player's name (games already played keep the name they were played under)",
        body: RenameBody,
        response: { 200: Me, 400: error, 401: error, 403: error, 409: error, 429: error },
      },
      // Limited like creating a player: each answer tells whether a name is taken.
      config: limited,
    },
    async (request) => {
      const player = signedIn(request);
      const name = validName(request.body.name);
      if (!(await accounts.rename(player.id, name))) throw new CodedError('not_signed_in', 'this player no longer exists');
      return me({ id: player.id, name });
    },
  );

  app.delete(
    '/api/me',
    {
      schema: {
        tags: ['players'],
        summary: `Delete the player: sessions and passkeys gone, the name freed, their seats in every game renamed "${DELETED_NAME}"`,
        response: { 204: { type: 'null' }, 401: error, 403: error },
      },
    },
    async (request, reply) => {
      const player = signedIn(request);
      await accounts.deletePlayer(player.id, DELETED_NAME, new Date().toISOString());
      games.forgetPlayer(player.id, DELETED_NAME);
      clearSession(reply, request, config);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/me/games',
    {
      schema: {
        tags: ['players'],
        summary: "The player's games on any device, most recent first; page with `before` = the previous page's `next`",
        querystring: MyGamesQuery,
        response: { 200: MyGames, 400: error, 401: error },
      },
    },
    async (request) => {
      const player = signedIn(request);
      const { finished, limit, before } = request.query;
      let page: Awaited<ReturnType<typeof store.list>>;
      try {
        page = await store.list({ finished, limit, playerId: player.id, ...(before ? { before } : {}) });
      } catch (e) {
        if (e instanceof RangeError) throw new CodedError('bad_request', e.message);
        throw e;
      }
      return { games: page.games.flatMap((g) => (isDamaged(g) ? [] : [myGame(g, player.id)])), next: page.next };
    },
  );

  app.post(
    '/api/passkeys/registration/options',
    {
      schema: { tags: ['players'], summary: 'Options for adding a passkey to the signed-in player (pass to startRegistration)', response: { 200: PasskeyOptions, 401: error, 403: error, 429: error } },
      config: limited,
    },
    async (request) => {
      const player = signedIn(request);
      const rp = relyingParty(request);
      const options = await generateRegistrationOptions({
        rpName: 'Tessera',
        rpID: rp.id,
        userName: player.name,
        userID: new TextEncoder().encode(player.id),
        attestationType: 'none',
        excludeCredentials: (await accounts.passkeys(player.id)).map((k) => ({ id: k.id, transports: k.transports })),
        // Discoverable: another device signs in with one prompt, no name asked.
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
      await accounts.putChallenge({ challenge: options.challenge, playerId: player.id, expiresAt: Date.now() + CHALLENGE_MS });
      return options;
    },
  );

  app.post(
    '/api/passkeys/registration',
    { schema: { tags: ['players'], summary: "Add the passkey (startRegistration's answer)", body: PasskeyAnswer, response: { 201: Me, 401: error, 403: error, 429: error } }, config: limited },
    async (request, reply) => {
      const player = signedIn(request);
      const rp = relyingParty(request);
      const verified = await verifyRegistrationResponse({
        response: request.body as RegistrationResponseJSON,
        expectedChallenge: (challenge) => takeChallenge(challenge, (c) => c.playerId === player.id),
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
      }).catch(() => null);
      if (!verified?.verified) throw passkeyRefused();
      const { credential } = verified.registrationInfo;
      // A credential registered already (to this player or another) is refused by the store.
      await accounts.addPasskey({
        id: credential.id,
        playerId: player.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: knownTransports(credential.transports),
        createdAt: new Date().toISOString(),
      });
      return reply.code(201).send(await me(player));
    },
  );

  app.post(
    '/api/passkeys/authentication/options',
    {
      schema: { tags: ['players'], summary: 'Options for signing in with a passkey (pass to startAuthentication; no name asked)', response: { 200: PasskeyOptions, 403: error, 429: error } },
      config: limited,
    },
    async (request) => {
      const options = await generateAuthenticationOptions({ rpID: relyingParty(request).id, userVerification: 'preferred' });
      await accounts.putChallenge({ challenge: options.challenge, playerId: null, expiresAt: Date.now() + CHALLENGE_MS });
      return options;
    },
  );

  app.post(
    '/api/passkeys/authentication',
    {
      schema: {
        tags: ['players'],
        summary: "Sign in with a passkey (startAuthentication's answer): this browser's session becomes the passkey's player",
        body: PasskeyAnswer,
        response: { 200: SessionReply, 401: error, 403: error, 429: error },
      },
      config: limited,
    },
    async (request, reply) => {
      const answer = request.body as AuthenticationResponseJSON;
      const passkey = await accounts.passkey(answer.id);
      const rp = relyingParty(request);
      // An unknown credential is verified too, against a key nobody holds: the answer takes the
      // same path and time whether the credential exists or not, and uses up its challenge.
      const verified = await verifyAuthenticationResponse({
        response: answer,
        expectedChallenge: (challenge) => takeChallenge(challenge, (c) => c.playerId === null),
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: passkey
          ? { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: passkey.transports }
          : { id: answer.id, publicKey: NOBODYS_KEY, counter: 0 },
        requireUserVerification: false,
      }).catch(() => null);
      if (!passkey || !verified?.verified || !namesOwner(answer, passkey.playerId)) throw passkeyRefused();
      const player = await accounts.player(passkey.playerId);
      if (!player) throw passkeyRefused();
      const { id, hash, expiresAt } = newSession();
      await accounts.signIn(passkey.id, verified.authenticationInfo.newCounter, { hash, expiresAt, playerId: player.id }, carriedSession(request));
      sendSession(reply, request, config, id);
      return { player: await me(player) };
    },
  );

  /** A challenge this server issued, unexpired, for this purpose: taken once whatever follows. */
  async function takeChallenge(challenge: string, fits: (c: Challenge) => boolean): Promise<boolean> {
    const taken = await accounts.takeChallenge(challenge, Date.now());
    return taken !== undefined && fits(taken);
  }
}

/** Whether the assertion's user handle (unsigned: the client's to fill) names the credential's
 * player. No user was named before the prompt, so WebAuthn requires it present and matching. */
function namesOwner(answer: AuthenticationResponseJSON, playerId: string): boolean {
  const handle = answer.response.userHandle;
  return typeof handle === 'string' && Buffer.from(handle, 'base64url').toString('utf8') === playerId;
}

/** The transports WebAuthn names (its AuthenticatorTransport, and the newer cable and smart-card). */
const TRANSPORTS: ReadonlySet<unknown> = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** The answer's transports are the client's to fill: only WebAuthn's are kept (anything else
 * would be sent back in every excludeCredentials, and PostgreSQL's jsonb refuses a "\u0000"). */
function knownTransports(sent: unknown): string[] {
  return Array.isArray(sent) ? [...new Set(sent.filter((t) => TRANSPORTS.has(t)))] : [];
}

/** A game as the player's list shows it. */
function myGame(g: ListedGame, playerId: string): MyGame {
  return {
    id: g.setup.id,
    createdAt: g.setup.createdAt,
    finishedAt: g.finishedAt,
    seats: g.holders.map((h) => h?.name ?? ''),
    mySeats: g.holders.flatMap((h, i) => (h?.playerId === playerId ? [i] : [])),
    rated: g.setup.rated === true,
  };
}

/** Encapsulated (its limits stay its own); needs the session plugin for `request.player`. */
export const accountRoutes = fp(routes, { name: 'account-routes', fastify: '5.x', encapsulate: true, dependencies: ['config', 'accounts', 'store', 'session', 'games'] });
