// The player session: a random id in an HttpOnly, SameSite=Lax cookie (Secure over https or when
// TESSERA_PUBLIC_ORIGIN is https), of which the store keeps only the hash. Every request carrying
// it gets `request.player`; a state-changing request carrying it must come from this server's own
// origin (a page of another site could otherwise make the browser send it): refused with
// `cross_origin`, before any handler.

import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { newSessionId, sessionHash } from '../players/store.ts';
import type { Config } from '../config.ts';
import { CodedError } from '../errors.ts';
import { StorageError } from '../storage/errors.ts';

export const SESSION_COOKIE = 'tessera_session';
/** How long a session lasts: the longest a browser keeps a cookie (400 days). */
export const SESSION_SECONDS = 400 * 86_400;
/** How stale a player's stored last sighting may grow before a request stores it again: one
 * write an hour at most, and an idle guest's clock (days, see config.ts) barely moves. */
export const SEEN_EVERY_MS = 3_600_000;

export interface SignedInPlayer {
  id: string;
  name: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in player (guest or with passkeys), or null without a live session. */
    player: SignedInPlayer | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const PLAYER_PATHS = /^\/(api|ws)(\/|\?|$)/;

/** The origin browsers reach this server at: configured, else this request's scheme and Host. */
export function ownOrigin(request: FastifyRequest, config: Config): string {
  return config.publicOrigin ?? `${request.protocol}://${request.host}`;
}

/** Whether a request that changes state came from a page of this server. Browsers send Origin
 * on such requests (and Sec-Fetch-Site); a client that sends neither is not a browser page. */
function fromOwnOrigin(request: FastifyRequest, config: Config): boolean {
  const origin = request.headers.origin;
  if (origin) return origin === ownOrigin(request, config);
  return request.headers['sec-fetch-site'] !== 'cross-site';
}

/** A new session: its id goes to the browser (`sendSession`, once stored), its hash to the store. */
export function newSession(): { id: string; hash: string; expiresAt: number } {
  const id = newSessionId();
  return { id, hash: sessionHash(id), expiresAt: Date.now() + SESSION_SECONDS * 1000 };
}

/** Secure whenever browsers reach the server over https: a TLS-terminating proxy that the
 * server does not trust to say so still serves the pages over https. */
function secureCookie(request: FastifyRequest, config: Config): boolean {
  return request.protocol === 'https' || ownOrigin(request, config).startsWith('https:');
}

export function sendSession(reply: FastifyReply, request: FastifyRequest, config: Config, sessionId: string): void {
  reply.setCookie(SESSION_COOKIE, sessionId, { httpOnly: true, sameSite: 'lax', secure: secureCookie(request, config), path: '/', maxAge: SESSION_SECONDS });
}

export function clearSession(reply: FastifyReply, request: FastifyRequest, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure: secureCookie(request, config), path: '/' });
}

/** The hash of the session id this request carries, or null. */
export function carriedSession(request: FastifyRequest): string | null {
  const id = request.cookies[SESSION_COOKIE];
  return id ? sessionHash(id) : null;
}

/** The signed-in player, or `not_signed_in`. */
export function signedIn(request: FastifyRequest): SignedInPlayer {
  if (!request.player) throw new CodedError('not_signed_in', 'sign in first: POST /api/session starts a guest session');
  return request.player;
}

async function session(app: FastifyInstance): Promise<void> {
  const { players, config } = app;
  await app.register(cookie);
  app.decorateRequest('player', null);
  app.addHook('onRequest', async (request) => {
    // The page and its assets need no player: they load without a store read (and while the
    // store is out of reach).
    if (!PLAYER_PATHS.test(request.url)) return;
    const hash = carriedSession(request);
    if (!hash) return;
    const ownPage = fromOwnOrigin(request, config);
    if (!SAFE_METHODS.has(request.method) && !ownPage) {
      throw new CodedError('cross_origin', `a change carrying the session cookie must come from ${ownOrigin(request, config)}`);
    }
    // A WebSocket from another site's page may watch, never play the player's seats.
    if (request.headers.upgrade && !ownPage) return;
    const now = Date.now();
    const player = await players.playerBySession(hash, now);
    request.player = player ? { id: player.id, name: player.name } : null;
    if (player && now - player.seenAt >= SEEN_EVERY_MS) {
      // The request goes on without it; a failing store is logged once and shows in readiness.
      await players.seen(player.id, now).catch((err) => {
        if (!(err instanceof StorageError)) request.log.error({ err }, "a player's last sighting could not be stored");
      });
    }
  });
}

/** Not encapsulated: every route registered after it (the game routes, the WebSocket upgrade)
 * sees `request.player`. */
export const sessionPlugin = fp(session, { name: 'session', fastify: '5.x', dependencies: ['config', 'players', 'http-setup'] });
