// The pool on its own, in this process: the same expert searches, one at a time with short gaps,
// on an idle pool and on a pool kept busy with analysis positions, in alternating rounds. No
// server, no load generator: what is left of a difference is the pool's doing (the yield, and any
// worker-side cost of the analysis), not the machine's other threads.

import pino from 'pino';
import { legalMoves, newGame, playMove } from '../../bot-engine/game.ts';
import { hideBag } from '../../bot-engine/rules.ts';
import type { GameState } from '../../bot-engine/state.ts';
import { Metrics } from '../../server/metrics.ts';
import { BotPool } from '../../server/pool/pool.ts';
import { percentile, round, sleep } from '../lib/stats.ts';
import { rng } from '../../support/random.ts';

export interface IsolationResult {
  searches: number;
  /** Per condition: search total (submit → answer), run inside the worker, and queue wait, ms. */
  alone: { totalP50: number; totalP99: number; runP99: number; waitP99: number };
  withAnalysis: { totalP50: number; totalP99: number; runP99: number; waitP99: number };
  yields: number;
}

function positions(count: number): GameState[] {
  const s = newGame({ players: 2, seed: 'isolation' });
  const out: GameState[] = [];
  for (let i = 0; out.length < count && !s.finished; i++) {
    out.push(hideBag(s.clone()));
    const moves = legalMoves(s);
    playMove(s, moves[(i * 5) % moves.length]);
  }
  return out;
}

/** `rounds` × 2 rounds (alone, with analysis) of one expert search per position. */
export async function measureIsolation(rounds: number, perRound: number): Promise<IsolationResult> {
  const metrics = new Metrics();
  const pool = new BotPool({
    sizing: { workers: 1, reason: 'isolation bench', availableParallelism: 2, quotaCpus: null, quotaSource: 'none', usableCores: 2, reservedCores: 1, setting: 1 },
    maxQueue: 64,
    workerFile: null,
    warmupLevel: 'hard',
    warmupTimeoutMs: 30000,
    logger: pino({ level: 'silent' }),
    metrics,
  });
  const random = rng(5);
  const states = positions(perRound);
  const samples = { alone: { total: [] as number[], run: [] as number[], wait: [] as number[] }, withAnalysis: { total: [] as number[], run: [] as number[], wait: [] as number[] } };
  try {
    await pool.start();
    for (let r = 0; r < 2 * rounds; r++) {
      const busy = r % 2 === 1;
      let stop = false;
      const analysis = async () => {
        while (!stop) {
          const st = states[Math.floor(random() * states.length)];
          await pool.analyse({ state: st.buffer.slice(0), played: legalMoves(st)[0], seed: 1 }).catch(() => {});
        }
      };
      const background = busy ? analysis() : Promise.resolve();
      const into = busy ? samples.withAnalysis : samples.alone;
      for (const st of states) {
        await sleep(20 + random() * 60);
        const t0 = performance.now();
        const result = await pool.search({ state: st.buffer.slice(0), level: 'expert', seed: 3, deadline: Date.now() + 5000 });
        into.total.push(performance.now() - t0);
        into.run.push(result.runMs);
        into.wait.push(Math.max(0, result.startedEpochMs - (performance.timeOrigin + t0)));
      }
      stop = true;
      await background;
    }
    const sum = (s: { total: number[]; run: number[]; wait: number[] }) => {
      const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
      return {
        totalP50: round(percentile(sorted(s.total), 50)),
        totalP99: round(percentile(sorted(s.total), 99)),
        runP99: round(percentile(sorted(s.run), 99)),
        waitP99: round(percentile(sorted(s.wait), 99), 2),
      };
    };
    return { searches: samples.alone.total.length, alone: sum(samples.alone), withAnalysis: sum(samples.withAnalysis), yields: pool.summary().classes?.preemption.count ?? 0 };
  } finally {
    await pool.close();
    metrics.close();
  }
}
