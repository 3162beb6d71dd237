// What a move costs on the wire: whole games of a person (random legal placements) against a
// `random` bot, played once per protocol version, counting the game frames (`state`, `delta`)
// the person's connection receives and their bytes, per move.
//
//   node bench/main-thread/frames.ts [checkout with dist/server built] [--games=5] [--protocols=1,2]

import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createGame, GameSocket, randomMove } from '../../support/game-client.ts';
import { startServer } from '../../support/server.ts';
import { rng } from '../../support/random.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { games: { type: 'string', default: '5' }, protocols: { type: 'string', default: '1,2' } } });
const root = resolve(positionals[0] ?? '.');
const games = Number(values.games);

const server = await startServer({}, { root });
try {
  for (const protocol of values.protocols.split(',').map(Number)) {
    let frames = 0;
    let bytes = 0;
    let moves = 0;
    const random = rng(7);
    for (let g = 0; g < games; g++) {
      const game = await createGame(server.url, [{ kind: 'person' }, { kind: 'bot', level: 'random' }]);
      const socket = await GameSocket.join(`${server.url.replace('http', 'ws')}/ws`, game.id, game.tokens.get(0), protocol);
      socket.socket.addEventListener('message', (e) => {
        const text = String(e.data);
        if (text.startsWith('{"type":"state"') || text.startsWith('{"type":"delta"')) {
          frames++;
          bytes += Buffer.byteLength(text);
        }
      });
      let movedTurn = -1;
      for (;;) {
        const frame = await socket.next((f) => f.type === 'state' || f.type === 'error', 30_000);
        if (frame.type === 'error') throw new Error(`${frame.code}: ${frame.message}`);
        const { view } = frame;
        if (view.status === 'finished') {
          moves += view.turn;
          break;
        }
        if (view.currentSeat === view.you && view.legal?.length && movedTurn !== view.turn) {
          movedTurn = view.turn;
          // Under the per-connection rate limit (10 frames a second).
          await sleep(120);
          socket.send({ type: 'move', turn: view.turn, move: randomMove(view.legal, random, 0.4) });
        }
      }
      socket.close();
    }
    console.log(
      `protocol ${protocol}: ${games} games, ${moves} moves; per move ${(frames / moves).toFixed(2)} game frames, ${Math.round(bytes / moves)} bytes (${Math.round(bytes / frames)} per frame)`,
    );
  }
} finally {
  await server.stop();
}
