// One address's deep searches against another game's cheap bot: three games of a person and four
// `expert` bots, each person moving at once, and beside them a game against a `random` bot. On the
// single worker, the random bot's move time (the server's `last.bot.elapsedMs`) shows whether it
// waits behind the expert searches queued ahead of it. Run it against two builds to compare.
//
//   node bench/fairness/run.ts [<checkout with dist/server built>] [--seconds=25]

import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { SeatRequest } from '../../server/wire/api.ts';
import { createGame, GameSocket } from '../../support/game-client.ts';
import { machine, machineLine } from '../lib/proc.ts';
import { startServer } from '../../support/server.ts';
import { summarize } from '../lib/stats.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { seconds: { type: 'string', default: '25' } } });
const root = resolve(positionals[0] ?? '.');
const started = machine();
const server = await startServer({ TESSERA_BOT_WORKERS: '1', TESSERA_WS_RATE: '1000', TESSERA_WS_BURST: '1000' }, { root });
const ws = `${server.url.replace('http', 'ws')}/ws`;
const stopAt = Date.now() + Number(values.seconds) * 1000;

/** Plays seat 0 (the first legal placement, at once) until `stopAt`; `botMove` gets each bot move's time. */
async function play(seats: SeatRequest[], botMove: (ms: number) => void): Promise<void> {
  const { id, tokens } = await createGame(server.url, seats);
  const me = await GameSocket.join(ws, id, tokens.get(0));
  try {
    let view = (await me.latestState((f) => f.view.status === 'finished' || (f.view.currentSeat === 0 && f.view.legal), 20_000)).view;
    while (Date.now() < stopAt && view.status !== 'finished') {
      const p = view.legal[0];
      const turn = view.turn;
      me.send({ type: 'move', turn, move: { x: p.x, y: p.y, rotation: p.rotation, meeple: null } });
      // Each frame up to the person's next turn: one per bot move.
      do {
        const f = await me.next((x) => x.type === 'state' && x.view.turn > turn, 20_000);
        if (f.last?.bot) botMove(f.last.bot.elapsedMs);
        view = f.view;
      } while (view.status !== 'finished' && !(view.currentSeat === 0 && view.legal));
    }
  } finally {
    me.socket.close();
  }
}

const cheap: number[] = [];
const deep: number[] = [];
const experts: SeatRequest[] = [{ kind: 'person' }, ...Array.from({ length: 4 }, () => ({ kind: 'bot' as const, level: 'expert' as const }))];
try {
  await Promise.all([
    ...[0, 1, 2].map(() => play(experts, (ms) => deep.push(ms))),
    // Once the expert games have filled the queue.
    new Promise((r) => setTimeout(r, 2000)).then(() => play([{ kind: 'person' }, { kind: 'bot', level: 'random' }], (ms) => cheap.push(ms))),
  ]);
} finally {
  await server.stop();
}
const result = { server: root, machine: machineLine(started, machine()), randomBotMs: summarize(cheap), expertBotMs: summarize(deep) };
console.log(JSON.stringify(result, null, 2));
console.log(`| ${root} | ${result.randomBotMs.count} | ${result.randomBotMs.p50} / ${result.randomBotMs.p95} / ${result.randomBotMs.max} | ${result.expertBotMs.p50} / ${result.expertBotMs.max} |`);
