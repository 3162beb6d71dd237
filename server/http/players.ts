// The players' routes: a guest session at once, the player's name, deleting the player, passkeys
// (add one; sign in with one on another device: server/players/passkey-ceremony.ts runs each
// step) and the player's games. Schemas and calls: what a step does lives in its module.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { DELETED_NAME, guestName, validName } from '../players/names.ts';
import { newPlayerId } from '../players/store.ts';
import { CodedError } from '../errors.ts';
import { isDamaged, type ListedGame } from '../games/store.ts';
import { turnOf } from '../games/deadlines.ts';
import { PasskeyCeremony, relyingParty } from '../players/passkey-ceremony.ts';
import { Me, type MyGame, MyGames, MyGamesQuery, PasskeyAnswer, PasskeyOptions, RenameBody, SessionReply, StartSessionBody } from '../wire/players.ts';
import { carriedSession, clearSession, newSession, ownOrigin, sendSession, signedIn } from './session.ts';

const error = { $ref: 'Error#' } as const;

async function routes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { players, config, store, games } = app;
  const limited = { rateLimit: { max: config.createsPerMinute, timeWindow: 60_000 } };
  const passkeys = new PasskeyCeremony(players);
  const relyingPartyOf = (request: FastifyRequest) => relyingParty(ownOrigin(request, config));
  const me = async (player: { id: string; name: string }): Promise<Me> => ({ id: player.id, name: player.name, passkeys: (await players.passkeys(player.id)).length });

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
      await players.createPlayer(player, { hash, expiresAt, playerId: player.id });
      sendSession(reply, request, config, id);
      return reply.code(201).send({ player: { id: player.id, name, passkeys: 0 } });
    },
  );

  app.post(
    '/api/session/sign-out',
    { schema: { tags: ['players'], summary: "End this browser's session (a guest without a passkey cannot come back)", response: { 204: { type: 'null' }, 403: error } } },
    async (request, reply) => {
      const hash = carriedSession(request);
      if (hash) await players.endSession(hash);
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
      if (!(await players.rename(player.id, name))) throw new CodedError('not_signed_in', 'this player no longer exists');
      return me({ id: player.id, name });
    },
  );

  app.delete(
    '/api/me',
    {
      schema: {
        tags: ['players'],
        summary: `Delete the player: sessions and passkeys gone, the name freed, their seats in every game renamed "${DELETED_NAME}", the seats kept for them by a challenge open to anyone`,
        response: { 204: { type: 'null' }, 401: error, 403: error },
      },
    },
    async (request, reply) => {
      const player = signedIn(request);
      await players.deletePlayer(player.id, DELETED_NAME, new Date().toISOString());
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
        // Unfinished games with their moves: whose turn it is is read from the record, no replay.
        page = await store.list({ finished, limit, playerId: player.id, invited: true, withMoves: !finished, ...(before ? { before } : {}) });
      } catch (e) {
        if (e instanceof RangeError) throw new CodedError('bad_request', e.message);
        throw e;
      }
      const listed = page.games.flatMap((g) => (isDamaged(g) ? [] : [myGame(g, player.id)]));
      return { games: finished ? listed : yoursFirst(listed), next: page.next };
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
      return passkeys.registrationOptions(relyingPartyOf(request), player);
    },
  );

  app.post(
    '/api/passkeys/registration',
    { schema: { tags: ['players'], summary: "Add the passkey (startRegistration's answer)", body: PasskeyAnswer, response: { 201: Me, 401: error, 403: error, 429: error } }, config: limited },
    async (request, reply) => {
      const player = signedIn(request);
      await passkeys.register(relyingPartyOf(request), player, request.body as RegistrationResponseJSON);
      return reply.code(201).send(await me(player));
    },
  );

  app.post(
    '/api/passkeys/authentication/options',
    {
      schema: { tags: ['players'], summary: 'Options for signing in with a passkey (pass to startAuthentication; no name asked)', response: { 200: PasskeyOptions, 403: error, 429: error } },
      config: limited,
    },
    async (request) => passkeys.signInOptions(relyingPartyOf(request)),
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
      const rp = relyingPartyOf(request);
      const { id, hash, expiresAt } = newSession();
      const player = await passkeys.signIn(rp, request.body as AuthenticationResponseJSON, { hash, expiresAt }, carriedSession(request));
      sendSession(reply, request, config, id);
      return { player: await me(player) };
    },
  );
}

/** A game as the player's list shows it. */
function myGame(g: ListedGame, playerId: string): MyGame {
  const mySeats = g.holders.flatMap((h, i) => (h?.playerId === playerId ? [i] : []));
  const invited = g.setup.seats.flatMap((s, i) => (s.player?.id === playerId && g.holders[i] === null ? [i] : []));
  // Turn-based games say whose turn it is and the time left (a live game is played at its table).
  const turn = g.moves && g.setup.pace ? turnOf({ ...g, moves: g.moves }) : null;
  return {
    id: g.setup.id,
    createdAt: g.setup.createdAt,
    finishedAt: g.finishedAt,
    seats: g.holders.map((h) => h?.name ?? ''),
    mySeats,
    rated: g.setup.rated === true,
    ...(invited.length > 0 ? { invited } : {}),
    ...(g.setup.pace ? { pace: { kind: g.setup.pace.kind, moveDays: g.setup.pace.moveDays } } : {}),
    ...(turn ? { currentSeat: turn.currentSeat, yourTurn: turn.currentSeat !== null && mySeats.includes(turn.currentSeat), deadline: turn.deadline } : {}),
  };
}

/** Unfinished games, the player's turns first (the soonest deadline first), then the others as
 * listed (newest first): within the page asked for. */
function yoursFirst(games: MyGame[]): MyGame[] {
  const mine = games.filter((g) => g.yourTurn).sort((a, b) => (a.deadline ?? Number.POSITIVE_INFINITY) - (b.deadline ?? Number.POSITIVE_INFINITY));
  return [...mine, ...games.filter((g) => !g.yourTurn)];
}

/** Encapsulated (its limits stay its own); needs the session plugin for `request.player`. */
export const playerRoutes = fp(routes, { name: 'player-routes', fastify: '5.x', encapsulate: true, dependencies: ['config', 'players', 'store', 'session', 'games'] });
