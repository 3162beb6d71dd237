// HTTP input is what the schema says: bodies are never coerced (query strings are), and every
// refusal, the framework's and the router's included, has the catalogue's shape and status.

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { ERRORS } from '../server/errors.ts';
import { get, post, type Running, startServer } from './server-helpers.ts';
import { rng } from '../support/random.ts';

let server: Running;
before(async () => {
  server = await startServer({ createsPerMinute: 10_000 });
});
after(async () => {
  await server.app.close();
});

const person = { kind: 'person' } as const;
const bot = { kind: 'bot', level: 'random' } as const;

/** One HTTP exchange with any method, path (sent as is), headers and body bytes. */
function exchange(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; text: string; type: string | undefined }> {
  const url = new URL(server.base);
  return new Promise((resolve, reject) => {
    // Raw bytes outside printable ASCII cannot go on a request line: escaped, the rest sent as is.
    const line = path.replace(/[^\x21-\x7e]/g, encodeURIComponent);
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path: line, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, type: res.headers['content-type'] }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A refusal in the documented shape: exactly {statusCode, code, message}, a catalogue code whose status is the answer's. */
function assertCatalogued(answer: { status: number; text: string }, what: string): { code: string; message: string } {
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    assert.fail(`${what}: ${answer.status} answer is not JSON: ${answer.text.slice(0, 200)}`);
  }
  assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'statusCode'], `${what}: ${answer.text}`);
  assert.ok(Object.hasOwn(ERRORS, body.code), `${what}: code ${body.code} is not in the catalogue`);
  assert.equal(ERRORS[body.code as keyof typeof ERRORS].status, answer.status, `${what}: ${body.code} answered with ${answer.status}`);
  assert.equal(body.statusCode, answer.status, what);
  assert.equal(typeof body.message, 'string', what);
  return body;
}

test('bodies are not coerced: a wrong type is a 400 bad_request and creates nothing; well-typed bodies work', async () => {
  const { games } = server.app;
  const { id: joinable } = (await post(server.base, '/api/games', { seats: [person, person] })).body;
  const mistyped: [string, string, unknown][] = [
    ['clock.turnSeconds true', '/api/games', { seats: [person, bot], clock: { turnSeconds: true } }],
    ['clock.turnSeconds "60"', '/api/games', { seats: [person, bot], clock: { turnSeconds: '60' } }],
    ['clock.graceSeconds "30"', '/api/games', { seats: [person, bot], clock: { graceSeconds: '30' } }],
    ['listed "true"', '/api/games', { seats: [person, bot], listed: 'true' }],
    ['listed 1', '/api/games', { seats: [person, bot], listed: 1 }],
    ['hints "true"', '/api/games', { seats: [person, bot], hints: 'true' }],
    ['rules.tinyCity 1', '/api/games', { seats: [person, bot], rules: { tinyCity: 1 } }],
    ['seats an object', '/api/games', { seats: person }],
    ['an unknown field', '/api/games', { seats: [person, bot], colour: 'red' }],
    ['name 123', `/api/games/${joinable}/seats`, { name: 123 }],
    ['seat "1"', `/api/games/${joinable}/seats`, { name: 'Ann', seat: '1' }],
    ['token 123', `/api/games/${joinable}/rematch`, { token: 123 }],
  ];
  const gamesBefore = games.activeCount();
  for (const [what, path, body] of mistyped) {
    const answer = await exchange('POST', path, { 'content-type': 'application/json' }, JSON.stringify(body));
    assert.equal(answer.status, 400, `${what}: ${answer.text}`);
    assert.equal(assertCatalogued(answer, what).code, 'bad_request');
  }
  assert.equal(games.activeCount(), gamesBefore, 'no refused body created a game');
  // Well typed but not a name (nothing visible): the name rule's own refusal.
  const invisible = await exchange('POST', `/api/games/${joinable}/seats`, { 'content-type': 'application/json' }, JSON.stringify({ name: '\u200b\u3164\u0301' }));
  assert.equal(assertCatalogued(invisible, 'a name with nothing visible').code, 'name_invalid');
  assert.deepEqual((await get(server.base, `/api/games/${joinable}`)).body.openSeats, [0, 1], 'no refused body took a seat');

  const timed = await post(server.base, '/api/games', { seats: [person, bot], clock: { turnSeconds: 60, graceSeconds: 30 }, listed: true, hints: true, rules: { tinyCity: true } });
  assert.equal(timed.status, 201, JSON.stringify(timed.body));
  assert.equal(timed.body.clock.turnSeconds, 60);
  assert.equal(timed.body.rules.tinyCity, true);
  const untimed = await post(server.base, '/api/games', { seats: [person, bot], clock: { turnSeconds: null } });
  assert.equal(untimed.body.clock.turnSeconds, null);
  assert.equal((await post(server.base, `/api/games/${joinable}/seats`, { name: 'Ann', seat: 1 })).body.seat, 1);
});

test('a call that takes no body refuses one that names a field (a GET any body), and changes nothing; `{}` names nothing', async () => {
  const json = { 'content-type': 'application/json' };
  const cookie = { cookie: await guestCookie() };
  const signedIn = async () => (JSON.parse((await exchange('GET', '/api/session', cookie)).text) as { player: unknown }).player !== null;
  const { id } = (await post(server.base, '/api/games', { seats: [person, person] })).body;
  const refused: [string, string, string, Record<string, string>, string][] = [
    ['a field on sign-out', 'POST', '/api/session/sign-out', { ...json, ...cookie }, '{"everywhere":true}'],
    ['a field on deleting the player', 'DELETE', '/api/me', { ...json, ...cookie }, '{"confirm":true}'],
    ['an array on asking for an analysis', 'POST', `/api/games/${id}/analysis`, json, '[]'],
    ['a body on a GET', 'GET', `/api/games/${id}`, json, '{"x":1}'],
  ];
  for (const [what, method, path, headers, body] of refused) {
    const answer = await exchange(method, path, headers, body);
    assert.equal(answer.status, 400, `${what}: ${answer.text}`);
    assert.equal(assertCatalogued(answer, what).code, 'bad_request');
    assert.ok(await signedIn(), `${what}: the player is still signed in`);
  }
  const out = await exchange('POST', '/api/session/sign-out', { ...json, ...cookie }, '{}');
  assert.equal(out.status, 204, out.text);
  assert.equal(await signedIn(), false);
});

/** A new guest's session cookie, as a browser sends it back. */
async function guestCookie(): Promise<string> {
  const res = await fetch(new URL('/api/session', server.base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(res.status, 201, await res.text());
  return res.headers.getSetCookie()[0].split(';')[0];
}

test('query strings still coerce: ?limit=5 is the number 5; ?limit=abc is a 400', async () => {
  for (let i = 0; i < 7; i++) assert.equal((await post(server.base, '/api/games', { seats: [person, bot], listed: true })).status, 201);
  const page = await get(server.base, '/api/games?limit=5');
  assert.equal(page.status, 200);
  assert.equal(page.body.games.length, 5);
  assert.equal((await get(server.base, '/api/games/finished?limit=3')).status, 200);
  for (const query of ['limit=abc', 'limit=0', 'limit=1.5', 'limit=1e9']) assertCatalogued(await exchange('GET', `/api/games?${query}`), query);
});

test('the router’s own refusals are catalogued: a bad percent-escape, a path parameter over 100 characters', async () => {
  for (const path of ['/api/games/%ZZ', '/api/games/%E0%A4%A', `/api/games/${'x'.repeat(101)}`, `/api/games/${'x'.repeat(101)}/seats`, `/api/games/${'x'.repeat(65)}`]) {
    const answer = await exchange('GET', path);
    assert.equal(answer.status, 400, `${path.slice(0, 40)}: ${answer.text}`);
    assert.equal(assertCatalogued(answer, path).code, 'bad_request');
  }
});

test('fuzz: a few hundred bad URLs, ids, headers and bodies all answer in the catalogue shape', async (t) => {
  const random = rng(0x7e55e4a);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const ids = [
    '%ZZ',
    '%',
    '%E0%A4%A',
    '%00',
    '%C0%AF',
    '%2F..%2F',
    '..',
    'x'.repeat(65),
    'x'.repeat(101),
    'x'.repeat(300),
    '%F0%9F%92%A9',
    'ü',
    'a b',
    '%20',
    "'; DROP TABLE games;--",
    '{id}',
    '%7B%7D',
  ];
  const tails = ['', '/seats', '/record', '/rematch', '/analysis', '/analysis/events', '/%ZZ', '/nope', '/'];
  const queries = ['', '?limit=abc', '?limit=-1', '?limit=1e9', '?limit=5&limit=6', '?before=%ZZ', `?player=${'p'.repeat(40)}`, '?%=%', '?limit'];
  const prefixes = ['/api/games/', '/api/games/finished/', '/', '/assets/', '/api/', '/api/pool/', '/game/'];
  const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
  const contentTypes = [
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
    'multipart/form-data; boundary=x',
    '',
  ];
  const values: unknown[] = [null, true, 'true', 0, 1, -1, 1.5, 1e308, '60', '', [], {}, [1, 2], { kind: 'person' }, 'x'.repeat(200)];
  const mutate = (): unknown => {
    const base: Record<string, unknown> = { seats: [person, bot], rules: { tinyCity: false }, clock: { turnSeconds: 60 }, listed: false, hints: false, name: 'Ann', seat: 0, token: 't' };
    const key = pick([...Object.keys(base), 'extra', '__proto__', 'constructor']);
    if (random() < 0.5) base[key] = pick(values);
    else delete base[key];
    return base;
  };
  const bodies = (): string => {
    const r = random();
    if (r < 0.5) return JSON.stringify(mutate());
    if (r < 0.65) return JSON.stringify(pick(values));
    if (r < 0.8) return pick(['{', '{"seats":', 'nul', '"\\ud800"', '{"a":1}{"b":2}', '\u0000', '[', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}']);
    return JSON.stringify(mutate()).slice(0, Math.floor(random() * 40));
  };
  const extraHeaders = (): Record<string, string> => {
    const r = random();
    if (r < 0.6) return {};
    if (r < 0.7) return { 'content-encoding': pick(['gzip', 'br', 'bogus']) };
    if (r < 0.8) return { 'x-forwarded-for': pick(['not-an-ip', '1.2.3.4, ::1', '']) };
    if (r < 0.9) return { accept: pick(['text/html', 'application/xml', '*/*;q=x']) };
    return { 'content-type': pick(contentTypes) };
  };

  const N = 400;
  const codes = new Map<string, number>();
  for (let i = 0; i < N; i++) {
    const method = pick(methods);
    const path = random() < 0.75 ? `/api/games/${pick(ids)}${pick(tails)}${pick(queries)}` : `${pick(prefixes)}${pick(ids)}${pick(queries)}`;
    const withBody = method !== 'GET' && method !== 'OPTIONS' && random() < 0.85;
    const headers = { ...(withBody ? { 'content-type': pick(contentTypes) } : {}), ...extraHeaders() };
    if (headers['content-type'] === '') delete (headers as Record<string, string>)['content-type'];
    const what = `#${i} ${method} ${path.slice(0, 60)} ${JSON.stringify(headers)}`;
    const answer = await exchange(method, path, headers, withBody ? bodies() : undefined);
    if (answer.status >= 200 && answer.status < 300) continue;
    const { code } = assertCatalogued(answer, what);
    assert.ok(answer.status < 500, `${what}: a client's request failed the server: ${answer.text}`);
    codes.set(code, (codes.get(code) ?? 0) + 1);
  }
  t.diagnostic(`non-2xx answers by code: ${JSON.stringify(Object.fromEntries(codes))}`);
  assert.ok((codes.get('bad_request') ?? 0) > N / 4, `mostly bad requests: ${JSON.stringify([...codes])}`);
});

test('POST analysis is limited per address (too_many_requests + Retry-After); GET, the way to poll, is not', async () => {
  const limited = await startServer({ createsPerMinute: 3 });
  try {
    const { id } = (await post(limited.base, '/api/games', { seats: [person, bot] })).body;
    const ask = () => fetch(`${limited.base}/api/games/${id}/analysis`, { method: 'POST' });
    // An unfinished game answers 409 not_finished: each ask still counts.
    for (let i = 0; i < 3; i++) assert.equal(((await (await ask()).json()) as { code: string }).code, 'not_finished');
    const over = await ask();
    assert.equal(over.status, 429);
    assert.ok(Number(over.headers.get('retry-after')) > 0, 'Retry-After says when');
    const body = (await over.json()) as { code: string; statusCode: number; message: string };
    assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'statusCode']);
    assert.equal(body.code, 'too_many_requests');
    assert.equal(body.statusCode, 429);
    assert.match(body.message, /at most 3 of these a minute/);
    for (let i = 0; i < 10; i++) assert.equal((await get(limited.base, `/api/games/${id}/analysis`)).body.code, 'no_analysis', 'polling is never limited');
  } finally {
    await limited.app.close();
  }
});
