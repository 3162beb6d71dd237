// A player with a passkey, made the way a browser makes one: a guest session, then a passkey
// registered through the server's routes by a software authenticator. Rated games between people
// seat only such players (docs/RATINGS.md).

import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { SoftAuthenticator } from './soft-authenticator.ts';

interface Answer {
  status: number;
  body: any;
  setCookie: string | null;
}

async function call(to: string | FastifyInstance, url: string, headers: Record<string, string>, body: unknown): Promise<Answer> {
  const all = body === undefined ? headers : { ...headers, 'content-type': 'application/json' };
  const payload = body === undefined ? undefined : JSON.stringify(body);
  if (typeof to === 'string') {
    const res = await fetch(`${to}${url}`, { method: 'POST', headers: all, body: payload });
    return { status: res.status, body: await res.json(), setCookie: res.headers.get('set-cookie') };
  }
  const res = await to.inject({ method: 'POST', url, headers: all, ...(payload === undefined ? {} : { payload }) });
  const set = res.headers['set-cookie'];
  return { status: res.statusCode, body: res.json(), setCookie: Array.isArray(set) ? set[0] : (set ?? null) };
}

/** A guest session (`guest`), or a player with a passkey: its cookie and id. `to` is a listening
 * server's URL or the app (reached through app.inject, whose origin is http://localhost:80). */
export async function player(to: string | FastifyInstance, name: string, withPasskey = true): Promise<{ cookie: string; id: string }> {
  const origin = typeof to === 'string' ? to : 'http://localhost:80';
  const started = await call(to, '/api/session', {}, { name });
  assert.equal(started.status, 201, JSON.stringify(started.body));
  const cookie = (started.setCookie ?? '').split(';')[0];
  const id: string = started.body.player.id;
  if (!withPasskey) return { cookie, id };
  const options = await call(to, '/api/passkeys/registration/options', { cookie, origin }, undefined);
  assert.equal(options.status, 200, JSON.stringify(options.body));
  const registered = await call(to, '/api/passkeys/registration', { cookie, origin }, new SoftAuthenticator().create(options.body, origin));
  assert.equal(registered.status, 201, JSON.stringify(registered.body));
  return { cookie, id };
}
