// Table talk over WebSockets (app.injectWS, no port): quick messages and free text from seated players
// reach every connection of the game, watchers included; watchers may not write; a seat's rate
// and the text length are limited; hostile text arrives as plain, cleaned text; the recent talk
// is handed to a connection that comes back.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CHAT_BURST, CHAT_KEPT, CHAT_REFILL_MS, cleanText, TableTalk } from '../server/games/table-talk.ts';
import { CHAT_MAX_CHARS } from '../server/wire/chat.ts';
import { Client, createGame, get, type Injected, injectServer, post } from './server-helpers.ts';

let server: Injected;
before(async () => {
  server = await injectServer();
});
after(async () => {
  await server.app.close();
});

/** Two people and a bot, both people connected, and a watcher. */
async function table() {
  const { id, tokens } = await createGame(server.base, [{ kind: 'person' }, { kind: 'person' }, { kind: 'bot', level: 'random' }], (s) => ['Ann', 'Bob'][s]);
  const ann = await Client.join(server.ws, id, tokens.get(0));
  const bob = await Client.join(server.ws, id, tokens.get(1));
  const watcher = await Client.join(server.ws, id);
  return { id, tokens, ann, bob, watcher, all: [ann, bob, watcher] };
}

const chatFrame = (c: Client) => c.next((f) => f.type === 'chat');
const errorFrame = (c: Client) => c.next((f) => f.type === 'error');

test('a quick message and free text reach both seats and the watcher, with seat and name', async () => {
  const t = await table();
  t.ann.send({ type: 'chat', quick: 'good_luck' });
  for (const c of t.all) {
    const { message } = await chatFrame(c);
    assert.deepEqual({ seat: message.seat, name: message.name, quick: message.quick, text: message.text }, { seat: 0, name: 'Ann', quick: 'good_luck', text: undefined });
    assert.ok(Math.abs(message.at - Date.now()) < 5000);
  }
  t.bob.send({ type: 'chat', text: '  nice   city\n\tthere ' });
  for (const c of t.all) assert.deepEqual((await chatFrame(c)).message.text, 'nice city there');
  const metrics = (await get(server.base, '/metrics')).body as string;
  assert.match(metrics, /tessera_chat_messages_total\{kind="quick"\} [1-9]/);
  assert.match(metrics, /tessera_chat_messages_total\{kind="text"\} [1-9]/);
  for (const c of t.all) c.close();
});

test('a watcher reads but may not write: not_seated, and nobody hears anything', async () => {
  const t = await table();
  t.watcher.send({ type: 'chat', quick: 'oops', id: 'w1' });
  const refused = await errorFrame(t.watcher);
  assert.equal(refused.code, 'not_seated');
  assert.equal(refused.ref, 'w1');
  assert.match(refused.message, /watchers read the table talk/);
  // A later message from a seat is the first chat anyone gets.
  t.bob.send({ type: 'chat', quick: 'hello' });
  for (const c of t.all) assert.equal((await chatFrame(c)).message.seat, 1);
  // Before a hello, chat is refused like a move.
  const stranger = await Client.connect(server.ws);
  stranger.send({ type: 'chat', quick: 'hello' });
  assert.equal((await errorFrame(stranger)).code, 'not_joined');
  for (const c of [...t.all, stranger]) c.close();
});

test('a seat may send a burst, then is rate-limited across its connections', async () => {
  const t = await table();
  const annAgain = await Client.join(server.ws, t.id, t.tokens.get(0));
  for (let i = 0; i < CHAT_BURST; i++) (i % 2 ? annAgain : t.ann).send({ type: 'chat', text: `message ${i}` });
  // Two connections: the server may read them in either order.
  const heard: string[] = [];
  for (let i = 0; i < CHAT_BURST; i++) heard.push((await chatFrame(t.watcher)).message.text);
  assert.deepEqual(
    heard.sort(),
    Array.from({ length: CHAT_BURST }, (_, i) => `message ${i}`),
  );
  annAgain.send({ type: 'chat', quick: 'oops', id: 7 });
  const limited = await errorFrame(annAgain);
  assert.equal(limited.code, 'chat_rate_limited');
  assert.equal(limited.ref, 7);
  // Another seat has its own budget.
  t.bob.send({ type: 'chat', quick: 'thanks' });
  assert.equal((await chatFrame(t.watcher)).message.quick, 'thanks');
  assert.equal(t.watcher.frames.filter((f) => f.type === 'chat' && f.message.quick === 'oops').length, 0, 'the limited message was not sent');
  for (const c of [...t.all, annAgain]) c.close();
});

test('text length and shape are limited; a bad frame changes nothing', async () => {
  const t = await table();
  const cases: [unknown, RegExp][] = [
    [{ type: 'chat', text: 'x'.repeat(CHAT_MAX_CHARS + 1) }, /at most 200 characters/],
    [{ type: 'chat', text: 'y'.repeat(CHAT_MAX_CHARS * 2 + 1) }, /text/],
    [{ type: 'chat', text: ' \n\t \u202e ' }, /text is empty/],
    [{ type: 'chat', text: '' }, /text/],
    // Nothing visible: zero-width space, Hangul filler, lone combining marks, a variation selector.
    [{ type: 'chat', text: '\u200b\u200b\u200b' }, /no visible character/],
    [{ type: 'chat', text: '\u3164 \u3164' }, /no visible character/],
    [{ type: 'chat', text: '\u0301\u0308\u20dd' }, /no visible character/],
    [{ type: 'chat', text: '\u200b\ufe0f\u2060\u115f\uffa0\u2800' }, /no visible character/],
    [{ type: 'chat' }, /either quick or text/],
    [{ type: 'chat', quick: 'hello', text: 'hi' }, /either quick or text/],
    [{ type: 'chat', quick: 'insult' }, /quick/],
    [{ type: 'chat', text: 'hi', html: '<b>' }, /html is not allowed/],
  ];
  for (const [frame, message] of cases) {
    t.ann.send(frame);
    const e = await errorFrame(t.ann);
    assert.equal(e.code, 'bad_frame', JSON.stringify(frame));
    assert.match(e.message, message);
  }
  // Exactly the limit is fine (counted in characters, not UTF-16 units).
  const longest = '🙂'.repeat(CHAT_MAX_CHARS);
  t.ann.send({ type: 'chat', text: longest });
  assert.equal((await chatFrame(t.bob)).message.text, longest);
  assert.equal(t.bob.frames.filter((f) => f.type === 'chat').length, 0, 'no refused message went out');
  for (const c of t.all) c.close();
});

test('hostile text stays text: markup arrives verbatim, control and direction overrides are dropped', async () => {
  const t = await table();
  const markup = '<img src=x onerror="alert(1)"><script>alert(2)</script>&amp;';
  t.ann.send({ type: 'chat', text: markup });
  assert.equal((await chatFrame(t.watcher)).message.text, markup, 'the server does not rewrite markup; the client shows it as text');
  t.ann.send({ type: 'chat', text: 'evil\u202Etxt.exe\u0000\u0007 bell' });
  assert.equal((await chatFrame(t.watcher)).message.text, 'eviltxt.exe bell');
  // Field names like __proto__ are refused, not merged.
  t.ann.send('{"type":"chat","text":"hi","__proto__":{"admin":true}}');
  assert.equal((await errorFrame(t.ann)).code, 'bad_frame');
  for (const c of t.all) c.close();
});

test("a seat's name follows the name rule: control, format (direction override) and half characters are refused, spaces made one", async () => {
  const { id } = (await post(server.base, '/api/games', { seats: [{ kind: 'person' }, { kind: 'person' }, { kind: 'person' }] })).body;
  const seat = (name: string) => post(server.base, `/api/games/${id}/seats`, { name });
  for (const bad of ['a\u0000evil', 'a\u202eevil', 'ok\udbff', '\u0000\u202e\u0007']) {
    const refused = await seat(bad);
    assert.deepEqual([refused.status, refused.body.code], [400, 'name_invalid'], JSON.stringify(bad));
  }
  const spaced = await seat('  Ann \n\t the  First ');
  assert.equal(spaced.status, 201, JSON.stringify(spaced.body));
  const view = (await get(server.base, `/api/games/${id}`)).body;
  assert.deepEqual(
    view.seats.map((s: { name: string | null }) => s.name),
    ['Ann the First', null, null],
    'nothing of the refused names was kept',
  );
});

test('the rate budget refills: one more message every CHAT_REFILL_MS, never more than the burst saved up', () => {
  const talk = new TableTalk();
  const t0 = 1_000_000;
  for (let i = 0; i < CHAT_BURST; i++) assert.ok(!('error' in talk.say(0, 'Ann', { quick: 'hello' }, t0)));
  assert.equal((talk.say(0, 'Ann', { quick: 'hello' }, t0 + CHAT_REFILL_MS - 1) as { error: string }).error, 'chat_rate_limited');
  assert.ok(!('error' in talk.say(0, 'Ann', { quick: 'hello' }, t0 + CHAT_REFILL_MS)));
  // A long silence saves up one burst, not more.
  const later = t0 + 100 * CHAT_REFILL_MS;
  for (let i = 0; i < CHAT_BURST; i++) assert.ok(!('error' in talk.say(0, 'Ann', { text: `x${i}` }, later)));
  assert.ok('error' in talk.say(0, 'Ann', { text: 'one too many' }, later));
  // The kept history is bounded, oldest dropped first.
  for (let i = 0; i < CHAT_KEPT + 5; i++) talk.say(1 + (i % 4), 'Bob', { quick: 'oops' }, later + i * CHAT_REFILL_MS);
  assert.equal(talk.recent().length, CHAT_KEPT);
  assert.equal(cleanText(' a\u202e\u0000  b\n'), 'a b');
});

test('recent talk (at most CHAT_KEPT, in memory) comes back in the welcome of a reconnecting player', async () => {
  const t = await table();
  // Two seats spread the messages over their budgets; Bob speaks once Ann's lines are in (two
  // sockets' frames may interleave), so the history's order is the order sent.
  const sent: string[] = [];
  for (const seat of [t.ann, t.bob]) {
    for (let i = 0; i < CHAT_BURST; i++) {
      const text = `line ${sent.length}`;
      seat.send({ type: 'chat', text });
      sent.push(text);
    }
    for (let i = 0; i < CHAT_BURST; i++) await chatFrame(t.watcher);
  }
  t.ann.close();
  const back = await Client.join(server.ws, t.id, t.tokens.get(0));
  assert.deepEqual(
    back.welcome.chat.map((m: any) => m.text),
    sent,
  );
  assert.ok(sent.length <= CHAT_KEPT);
  const late = await Client.join(server.ws, t.id);
  assert.equal(late.welcome.chat.length, sent.length, 'a new watcher gets the recent talk too');
  for (const c of [back, t.bob, t.watcher, late]) c.close();
});
