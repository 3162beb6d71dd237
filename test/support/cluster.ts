// The set-up of the cluster test files: a private PostgreSQL and Redis for the file, and real
// instances (the compiled server in its own process, so SIGKILL and SIGSTOP are real). Without
// PostgreSQL or Redis the file's tests are skipped with one line each; under CI=true they fail.

import { type PrivatePostgres, startPostgres } from '../../support/postgres.ts';
import { type PrivateRedis, startRedis } from '../../support/redis.ts';
import { type RunningServer, startServer as startProcess } from '../../support/server.ts';
import { needing, POSTGRES, REDIS } from './needs.ts';
import { type GameSocket, randomMove } from '../../support/game-client.ts';
import { rng } from '../../support/random.ts';

export type Instance = RunningServer & { base: string; ws: string; env: Record<string, string> };

export interface ClusterServices {
  postgres: PrivatePostgres;
  redis: PrivateRedis;
}

/** The file's `test`, its private services (set once its `before` has run) and `startInstance`;
 * every instance started is SIGKILLed and both services stopped after the file. */
export function clusterTests() {
  const { test, before, after } = needing([POSTGRES, REDIS]);
  const services = {} as ClusterServices;
  const instances: Instance[] = [];
  before(async () => {
    // Each is kept as soon as it runs: if the other fails to start, `after` still stops it.
    const started = await Promise.allSettled([startPostgres().then((p) => (services.postgres = p)), startRedis().then((r) => (services.redis = r))]);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
  });
  after(async () => {
    for (const i of instances) await i.kill('SIGKILL').catch(() => {});
    await Promise.all([services.postgres?.stop(), services.redis?.stop()]);
  });

  async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
    const full = {
      TESSERA_INSTANCE_ID: name,
      TESSERA_BOT_WORKERS: '1',
      TESSERA_WARMUP_LEVEL: 'random',
      TESSERA_BOT_DEADLINE_MS: '1000',
      TESSERA_WS_RATE: '1000',
      TESSERA_WS_BURST: '1000',
      ...env,
    };
    const s = await startProcess(full);
    const instance = Object.assign(s, { base: s.url, ws: `${s.url.replace('http', 'ws')}/ws`, env: full });
    instances.push(instance);
    return instance;
  }
  return { test, services, startInstance };
}

/** Plays seat 0's next `n` turns with random moves (seeded by `seed`), each turn once however many
 * frames show it (a presence change shows the same turn again), and waits for the last move's own
 * frame; the moves acknowledged meanwhile, by turn. */
export async function playTurns(client: GameSocket, n: number, seed = 7): Promise<Map<number, unknown>> {
  const acknowledged = new Map<number, unknown>();
  const random = rng(seed);
  let moved = -1;
  for (let played = 0; played < n; ) {
    const frame = await client.next((f) => f.type === 'state', 10_000);
    if (frame.last) acknowledged.set(frame.last.turn, frame.last.move);
    const view = frame.view;
    if (view.currentSeat === 0 && view.legal?.length && !view.botThinking && view.turn !== moved) {
      client.send({ type: 'move', turn: view.turn, move: randomMove(view.legal, random, 0.3) });
      moved = view.turn;
      played++;
    }
  }
  // The last move's own state frame.
  const frame = await client.next((f) => f.type === 'state' && f.last?.seat === 0, 10_000);
  acknowledged.set(frame.last.turn, frame.last.move);
  return acknowledged;
}
