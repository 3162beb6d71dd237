// Prometheus metrics (one registry per app, so several apps can live in one test process) and the
// main event loop's health (server/loop-monitor.ts).

import { createRequire } from 'node:module';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { LoopMonitor } from './loop-monitor.ts';
import type { EventLoopReport, TaskClass } from './wire/pool.ts';

/** Seconds of history behind the event-loop numbers in /api/pool and /metrics. */
export const LOOP_WINDOW_SECONDS = 5;

const SECONDS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5];

/** Numbers read at each scrape from the parts that own them (set once they exist). */
export interface ScrapeSources {
  poolUtilization?: () => Record<TaskClass, number>;
  games?: () => { active: number; inMemory: number };
}

const require = createRequire(import.meta.url);
type DefaultMetric = (registry: Registry, config: object) => void;

/** prom-client's default metrics (process CPU, memory, heap, handles, GC, …) except its
 * event-loop lag: that one starts a second delay monitor (monitorEventLoopDelay at 10 ms) beside
 * ours, and prom-client 15 has no option to leave it out. Each default is its own module, named
 * as in `metricsList`. */
function nodeMetrics(registry: Registry): void {
  for (const name of collectDefaultMetrics.metricsList) {
    if (name === 'eventLoopLag') continue;
    (require(`prom-client/lib/metrics/${name}.js`) as DefaultMetric)(registry, {});
  }
}

export class Metrics {
  readonly registry = new Registry();
  readonly loop = new LoopMonitor();
  readonly sources: ScrapeSources = {};

  readonly taskQueueWait = this.histogram('tessera_pool_task_queue_wait_seconds', 'Pool task time from submission to its start on a worker (queue wait plus dispatch), by class', ['class']);
  readonly taskRun = this.histogram('tessera_pool_task_run_seconds', 'Pool task wall time inside the worker, by class', ['class']);
  readonly taskCpu = this.histogram('tessera_pool_task_cpu_seconds', 'Pool task thread CPU inside the worker, by class', ['class']);
  readonly utilization = this.gauge('tessera_pool_utilization', `Worker time busy over the last ${LOOP_WINDOW_SECONDS} s ÷ (workers × window), by class`, ['class'], (g) => {
    for (const [cls, value] of Object.entries(this.sources.poolUtilization?.() ?? {})) g.set({ class: cls }, value);
  });
  readonly backgroundQueueDepth = this.gauge('tessera_pool_background_queue_depth', 'Analysis positions waiting for an idle worker');
  readonly hintQueueDepth = this.gauge('tessera_pool_hint_queue_depth', 'Hints waiting for an idle worker (never counted toward readiness or overload)');
  readonly hints = this.counter(
    'tessera_hints_total',
    "Hint requests answered, by how: search (a new search), shared (from the seat's search for that turn, done or in flight), busy (no worker free in time: hint_busy)",
    ['answer'],
  );
  readonly push = this.counter(
    'tessera_push_total',
    'Turn notifications, by outcome: pushes sent, gone (the push service forgot the subscription: dropped), failed, retried (the connection closed unanswered: sent once more); and turns not pushed because the player was watching or the notification was claimed already (sent by another call or instance)',
    ['outcome'],
  );
  readonly preemptions = this.counter('tessera_pool_preemptions_total', 'Hint and analysis tasks that yielded their worker to work of a higher class (run again later)');
  readonly preemptedCpu = this.counter('tessera_pool_preempted_cpu_seconds_total', 'Thread CPU of hint and analysis tasks that yielded (spent again when they rerun)');
  readonly yieldTime = this.histogram('tessera_pool_yield_seconds', 'From asking a running hint or analysis task to yield to its worker being free');
  readonly workerOnline = this.gauge('tessera_pool_worker_online_seconds', 'Worker creation to module loaded', ['thread']);
  readonly workerWarm = this.gauge('tessera_pool_worker_warm_seconds', 'Worker creation to warm-up done', ['thread']);
  readonly workerSpawnCpu = this.gauge('tessera_pool_worker_spawn_cpu_seconds', 'Thread CPU a worker spent loading and warming up', ['thread']);
  readonly workerComputeCpu = this.gauge('tessera_pool_worker_compute_cpu_seconds', 'Thread CPU a worker spent on bot tasks', ['thread']);
  readonly spawnCpuTotal = this.gauge('tessera_pool_spawn_cpu_seconds_total', 'Thread CPU all workers spent loading and warming up');
  readonly computeCpuTotal = this.gauge('tessera_pool_compute_cpu_seconds_total', 'Thread CPU all workers spent on bot tasks');
  readonly spawnComputeRatio = this.gauge('tessera_pool_spawn_compute_cpu_ratio', 'Total spawn CPU / total compute CPU');
  readonly workers = this.gauge('tessera_pool_workers', 'Worker threads alive');
  readonly workersTarget = this.gauge('tessera_pool_workers_target', 'Worker threads the pool is sized for');
  readonly queueDepth = this.gauge('tessera_pool_queue_depth', 'Bot searches (interactive class) waiting for a worker');
  readonly queueBound = this.gauge('tessera_pool_queue_bound', 'Bound on waiting bot tasks (maxQueue)');
  readonly poolReady = this.gauge('tessera_pool_ready', '1 once every worker is warm');
  readonly respawns = this.counter('tessera_pool_respawns_total', 'Workers replaced after the pool was ready (incidents)');
  readonly botMoves = this.counter('tessera_bot_moves_total', 'Bot moves played, by how they were chosen', ['source']);
  readonly degraded = this.counter('tessera_bot_degraded_total', 'Bot moves degraded under load', ['step']);
  readonly deadlineHits = this.counter('tessera_bot_deadline_hits_total', 'Bot searches that hit their deadline');
  readonly searchFailures = this.counter('tessera_bot_search_failures_total', 'Bot searches the pool failed to answer', ['reason']);
  readonly shed = this.counter('tessera_shed_total', 'Requests refused under overload', ['what']);
  readonly games = this.gauge('tessera_games_active', 'Games in memory, not finished', [], (g) => {
    const games = this.sources.games?.();
    if (games) g.set(games.active);
  });
  readonly roomsInMemory = this.gauge('tessera_games_in_memory', 'Games held in memory: unfinished, finished with someone watching, and the finished-game cache', [], (g) => {
    const games = this.sources.games?.();
    if (games) g.set(games.inMemory);
  });
  readonly gamesDamaged = this.gauge('tessera_games_damaged', 'Stored games set aside because their data does not parse or replay (each answers game_damaged; docs/OPERATIONS.md)');
  readonly abandoned = this.counter('tessera_games_abandoned_total', 'Games ended because they expired, by why', ['why']);
  readonly missedTurns = this.counter('tessera_turn_based_missed_turns_total', 'Turn-based moves played by a stand-in because their deadline passed, by outcome (stand_in, dropped)', ['outcome']);
  readonly storeWriteFailures = this.counter('tessera_store_write_failures_total', 'Game store writes that could not commit (nothing changed), by operation', ['op']);
  readonly storeWritable = this.gauge('tessera_store_writable', '1 while the game store commits writes, 0 while they fail');
  readonly takeovers = this.counter('tessera_cluster_takeovers_total', 'Games this instance took over from an instance whose lease ran out');
  readonly gamesLost = this.counter('tessera_cluster_games_lost_total', 'Games another instance took from this one (lease ran out, write fenced off)');
  readonly relayed = this.gauge('tessera_cluster_relayed_connections', 'WebSocket connections here relayed to the instance owning their game');
  readonly relayOutages = this.counter('tessera_cluster_relay_outages_total', 'Times the relay (Redis) broke: its relayed connections were closed with 4000');
  readonly sockets = this.gauge('tessera_ws_connections', 'Open WebSocket connections');
  readonly wsErrors = this.counter('tessera_ws_errors_total', 'Error frames sent, by code', ['code']);
  readonly chatMessages = this.counter('tessera_chat_messages_total', 'Table-talk messages sent, by kind (quick, text); refusals are in tessera_ws_errors_total', ['kind']);
  readonly wsViolations = this.counter('tessera_ws_protocol_violations_total', 'Connections closed for breaking the WebSocket protocol, by ws error code', ['code']);
  readonly loopDelayGauge = this.gauge('tessera_event_loop_delay_seconds', `Main event-loop delay over the last ${LOOP_WINDOW_SECONDS} s`, ['quantile']);
  readonly loopUtilisation = this.gauge('tessera_event_loop_utilization', `Main event-loop utilisation over the last ${LOOP_WINDOW_SECONDS} s (0..1)`);

  constructor() {
    nodeMetrics(this.registry);
    this.loop.start();
  }

  /** Event-loop delay and utilisation over the last few seconds, and over the last minute.
   * Reading never resets anything: the dashboard, scrapers and benchmarks do not interfere. */
  sampleEventLoop(): EventLoopReport {
    return { ...this.loop.window(LOOP_WINDOW_SECONDS), resolutionMs: 0, lastSecond: this.loop.window(1), lastMinute: this.loop.window(60) };
  }

  async render(): Promise<string> {
    const loop = this.sampleEventLoop();
    this.loopDelayGauge.set({ quantile: '0.5' }, loop.delayMs.p50 / 1000);
    this.loopDelayGauge.set({ quantile: '0.99' }, loop.delayMs.p99 / 1000);
    this.loopDelayGauge.set({ quantile: '1' }, loop.delayMs.max / 1000);
    this.loopUtilisation.set(loop.utilization);
    return this.registry.metrics();
  }

  close(): void {
    this.loop.stop();
    this.registry.clear();
  }

  private histogram<L extends string>(name: string, help: string, labelNames: L[] = []): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets: SECONDS, registers: [this.registry] });
  }
  /** `collect` computes the gauge at each scrape. */
  private gauge<L extends string>(name: string, help: string, labelNames: L[] = [], collect?: (gauge: Gauge<L>) => void): Gauge<L> {
    return new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      ...(collect
        ? {
            collect: function (this: Gauge<L>) {
              collect(this);
            },
          }
        : {}),
    });
  }
  private counter<L extends string>(name: string, help: string, labelNames: L[] = []): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }
}
