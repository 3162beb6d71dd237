// /dashboard: the live operations page. Polls GET /api/pool every second (pool sizing, per-worker
// spawn cost against compute, queue, task quantiles, event loop, counters, games, sockets) and
// GET /metrics every few seconds for the queue-wait and run-time histogram buckets, keeps five
// minutes of history in the page and draws it all as SVG charts.

import type { PoolReport, Quantiles } from '../../../server/wire/pool.ts';
import { esc } from '../dom.ts';
import { type Bucket, fmt, gauge, groupedBars, histogram, legend, lineChart, sparkline } from '../charts.ts';

interface Sample {
  t: number;
  depth: number;
  inFlight: number;
  util: number;
  utilBots: number;
  utilAnalysis: number;
  loopP50: number;
  loopP99: number;
  loopMax: number;
  elu: number;
  games: number;
  sockets: number;
  moves: number;
  shed: number;
  degraded: number;
  alive: number;
}

const HISTORY = 300;
const C = { green: '#7fd1a0', blue: '#56b4e9', orange: '#e69f00', pink: '#cc79a7', yellow: '#f0e442', red: '#ff6b5b', grey: '#8a9a8f', teal: '#009e73' };

const root = document.getElementById('dash')!;
const history: Sample[] = [];
let pool: PoolReport | null = null;
let hist: { queueWait: Bucket[]; run: Bucket[] } | null = null;
let lastOk = 0;
let error = '';

root.innerHTML = `<div class="dash">
<header><h1><span class="brand-mark" aria-hidden="true"></span>Tessera · bot pool</h1><a href="/">← play</a><a href="/metrics">/metrics</a><a href="/api/pool">/api/pool</a><span class="status" role="status" aria-live="polite">loading…</span></header>
<div class="kpis"></div>
<div class="dash-grid"></div>
</div>`;
const statusEl = root.querySelector<HTMLElement>('.status')!;
const kpisEl = root.querySelector<HTMLElement>('.kpis')!;
const gridEl = root.querySelector<HTMLElement>('.dash-grid')!;

const ceil4 = (v: number) => Math.ceil(v / 4) * 4;
const sum = (o: Record<string, number> | undefined) => Object.values(o ?? {}).reduce((a, b) => a + b, 0);

async function poll(): Promise<void> {
  try {
    const res = await fetch('/api/pool', { cache: 'no-store' });
    if (!res.ok) throw new Error(`/api/pool answered ${res.status}`);
    pool = (await res.json()) as PoolReport;
    lastOk = Date.now();
    error = '';
    const p = pool;
    history.push({
      t: Date.now(),
      depth: p.queue?.depth ?? 0,
      inFlight: p.queue?.inFlight ?? 0,
      util: p.utilization ?? 0,
      utilBots: p.classes?.interactive.utilization ?? 0,
      utilAnalysis: p.classes?.analysis.utilization ?? 0,
      loopP50: p.eventLoop?.delayMs.p50 ?? 0,
      loopP99: p.eventLoop?.delayMs.p99 ?? 0,
      loopMax: p.eventLoop?.delayMs.max ?? 0,
      elu: p.eventLoop?.utilization ?? 0,
      games: p.games ?? 0,
      sockets: p.sockets ?? 0,
      moves: sum(p.counters?.botMoves),
      shed: p.counters?.shed ?? 0,
      degraded: sum(p.counters?.degraded),
      alive: p.alive ?? 0,
    });
    if (history.length > HISTORY) history.shift();
  } catch (e) {
    error = (e as Error).message || 'unreachable';
  }
  render();
}

/** Histogram buckets of one class from the Prometheus text (cumulative → per bucket), in ms. */
function parseBuckets(text: string, metric: string, cls: 'interactive' | 'analysis'): Bucket[] {
  const re = new RegExp(`^${metric}_bucket\\{([^}]*)\\}\\s+([0-9.eE+-]+)`, 'gm');
  const cum: { le: number; n: number }[] = [];
  for (const m of text.matchAll(re)) {
    const le = /le="([^"]+)"/.exec(m[1])?.[1];
    if (!le || !m[1].includes(`class="${cls}"`)) continue;
    cum.push({ le: le === '+Inf' ? Infinity : Number(le) * 1000, n: Number(m[2]) });
  }
  cum.sort((a, b) => a.le - b.le);
  return cum.map((c, i) => ({ le: c.le, count: Math.max(0, c.n - (i ? cum[i - 1].n : 0)) }));
}

async function pollMetrics(): Promise<void> {
  try {
    const res = await fetch('/metrics', { cache: 'no-store' });
    if (!res.ok) return;
    const text = await res.text();
    hist = { queueWait: parseBuckets(text, 'tessera_pool_task_queue_wait_seconds', 'interactive'), run: parseBuckets(text, 'tessera_pool_task_run_seconds', 'interactive') };
    render();
  } catch {
    /* the /api/pool poll reports reachability */
  }
}

/** Per-second rate of a cumulative counter over the history. */
function rate(key: 'moves' | 'shed' | 'degraded'): (number | null)[] {
  return history.map((s, i) => {
    if (i === 0) return null;
    const dt = (s.t - history[i - 1].t) / 1000;
    return dt > 0 ? Math.max(0, (s[key] - history[i - 1][key]) / dt) : null;
  });
}

function card(title: string, sub: string, body: string, wide = false, id = ''): string {
  return `<section class="panel-card${wide ? ' wide' : ''}"${id ? ` data-card="${id}"` : ''}><h2>${esc(title)}<small>${sub}</small></h2>${body}</section>`;
}

function coresDiagram(p: PoolReport): string {
  const s = p.sizing;
  const n = Math.max(1, s.availableParallelism);
  const cols = Math.min(n, 16);
  const rows = Math.ceil(n / cols);
  const size = 32;
  const W = cols * (size + 6) + 6;
  const H = rows * (size + 6) + 6;
  const quota = s.quotaCpus ?? Infinity;
  const cells: string[] = [];
  for (let i = 0; i < n; i++) {
    const x = 6 + (i % cols) * (size + 6);
    const y = 6 + Math.floor(i / cols) * (size + 6);
    const usable = i < s.usableCores;
    const worker = i < p.size;
    const reserved = !worker && usable && i < p.size + s.reservedCores;
    const fill = worker ? C.green : reserved ? C.blue : usable ? '#3b4840' : '#262e29';
    const label = worker ? `W${i + 1}` : reserved ? 'main' : i >= quota ? '×' : '';
    cells.push(
      `<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="4" fill="${fill}" ${usable ? '' : 'stroke="#3b4840" stroke-dasharray="3 2"'}><title>core ${i + 1}: ${worker ? 'bot worker' : reserved ? 'reserved (main thread, I/O)' : usable ? 'usable, unused' : 'beyond the CPU quota'}</title></rect><text x="${x + size / 2}" y="${y + size / 2 + 4}" text-anchor="middle" style="fill:${worker || reserved ? '#10160f' : '#8a9a8f'};font-weight:700;font-size:9.5px">${label}</text>`,
    );
  }
  // Extra workers beyond the cores (an explicit setting may ask for more).
  const extra = Math.max(0, p.size - n);
  return `<svg viewBox="0 0 ${Math.max(W, 200)} ${H}" role="img" aria-label="cores and workers">${cells.join('')}</svg>
${legend([
  { name: `bot workers (${p.size})`, color: C.green },
  { name: `reserved (${s.reservedCores})`, color: C.blue },
  { name: 'usable, unused', color: '#3b4840' },
  { name: 'beyond quota', color: '#262e29' },
])}
<p class="note"><strong>${p.size} worker${p.size === 1 ? '' : 's'}</strong>: ${esc(s.reason)}${extra ? ` (${extra} more than cores)` : ''}.<br>
available parallelism ${s.availableParallelism} · CPU quota ${s.quotaCpus === null ? 'none' : fmt(s.quotaCpus)} <span title="${esc(s.quotaSource)}">(${esc(shorten(s.quotaSource))})</span> · usable ${s.usableCores} · setting ${s.setting ?? 'auto'} · warm-up ${fmt(p.warmupMs, ' ms')}</p>`;
}

function shorten(s: string): string {
  return s.length > 48 ? `…${s.slice(-46)}` : s;
}

function warmupTimeline(p: PoolReport): string {
  const ws = p.workers;
  if (!ws.length) return '<p class="note">No worker has reported yet.</p>';
  const W = 420;
  const L = 60;
  const R = 50;
  const rowH = 18;
  const H = ws.length * rowH + 26;
  const max = Math.max(1, ...ws.map((w) => Math.max(w.warmMs ?? 0, w.onlineMs)));
  const x = (v: number) => L + ((W - L - R) * v) / max;
  const rows = ws.map((w, i) => {
    const y = 4 + i * rowH;
    const warm = w.warmMs ?? w.onlineMs;
    return `<text x="${L - 6}" y="${y + 11}" text-anchor="end">#${w.threadId}${w.respawn ? '↻' : ''}${w.alive ? '' : '✝'}</text>
<rect x="${L}" y="${y}" width="${(x(w.onlineMs) - L).toFixed(1)}" height="12" fill="${C.orange}" rx="2"><title>online after ${fmt(w.onlineMs, ' ms')}</title></rect>
<rect x="${x(w.onlineMs).toFixed(1)}" y="${y}" width="${Math.max(0, x(warm) - x(w.onlineMs)).toFixed(1)}" height="12" fill="${C.yellow}" rx="2"><title>warm after ${fmt(warm, ' ms')}</title></rect>
<text x="${x(warm) + 4}" y="${y + 10}">${fmt(warm, ' ms')}</text>`;
  });
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="worker start-up timeline">${rows.join('')}<line class="axis" x1="${L}" x2="${W - R}" y1="${H - 20}" y2="${H - 20}"/><text x="${L}" y="${H - 6}">pool created</text><text x="${W - R}" y="${H - 6}" text-anchor="end">${fmt(max, ' ms')}</text></svg>
${legend([
  { name: 'thread start → module loaded', color: C.orange },
  { name: 'loaded → warm-up search done', color: C.yellow },
])}`;
}

function counterBars(entries: [string, number, string][]): string {
  const W = 420;
  const L = 130;
  const R = 46;
  const rowH = 20;
  const H = entries.length * rowH + 6;
  const max = Math.max(1, ...entries.map((e) => e[1]));
  return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="counters">${entries
    .map(([name, v, color], i) => {
      const y = 3 + i * rowH;
      const w = ((W - L - R) * v) / max;
      return `<text x="${L - 6}" y="${y + 12}" text-anchor="end">${esc(name)}</text><rect x="${L}" y="${y + 2}" width="${Math.max(v > 0 ? 2 : 0, w).toFixed(1)}" height="13" rx="2" fill="${color}"/><text x="${L + w + 5}" y="${y + 13}" style="fill:#fff">${v}</text>`;
    })
    .join('')}</svg>`;
}

function render(): void {
  const stale = Date.now() - lastOk > 4000;
  statusEl.textContent = error ? `unreachable: ${error}` : !pool ? 'loading…' : !pool.ready ? 'pool warming up' : stale ? 'stale' : `live · ${new Date(lastOk).toLocaleTimeString()}`;
  statusEl.className = `status${error ? ' bad' : pool && !pool.ready ? ' warn' : ''}`;
  const p = pool;
  if (!p) return;
  const h = history;
  const col = <K extends keyof Sample>(k: K) => h.map((s) => s[k] as number);
  const span = h.length > 1 ? (h[h.length - 1].t - h[0].t) / 1000 : 0;
  const totalDegraded = sum(p.counters.degraded);
  const kpi = (label: string, value: string, spark?: number[], color?: string, title = '') =>
    `<div class="kpi" title="${esc(title)}"><div class="v">${value}</div><div class="l">${esc(label)}</div>${spark ? sparkline(spark, color) : ''}</div>`;
  kpisEl.innerHTML = [
    kpi('workers alive / size', `${p.alive}/${p.size}`, col('alive'), C.green),
    kpi(`queue depth (bound ${p.queue.bound})`, String(p.queue.depth), col('depth'), C.orange),
    kpi('tasks in flight', String(p.queue.inFlight), col('inFlight'), C.blue),
    kpi('pool utilisation', `${Math.round(p.utilization * 100)}%`, col('util'), C.teal, 'worker time busy over the last 5 s, bot moves and analysis'),
    kpi('predicted bot wait', fmt(p.predictedWaitMs, ' ms'), undefined, undefined, 'how long a bot move submitted now would wait for a worker'),
    kpi('analysis queued', String(p.classes?.analysis.queued ?? 0), undefined, undefined, 'analysis positions waiting for an idle worker'),
    kpi('event-loop delay p99', fmt(p.eventLoop.delayMs.p99, ' ms'), col('loopP99'), C.pink),
    kpi('active games', String(p.games), col('games'), C.yellow),
    kpi('WebSockets', String(p.sockets), col('sockets'), C.blue),
    kpi('respawns', String(p.counters.respawns ?? p.respawns), undefined, undefined, 'workers replaced after the pool was ready'),
    kpi('degraded moves', String(totalDegraded), col('degraded'), C.orange),
    kpi('shed requests', String(p.counters.shed), col('shed'), C.red),
  ].join('');

  const t = p.tasks;
  const qw = hist?.queueWait ?? [];
  const run = hist?.run ?? [];
  const markers = (q: Quantiles | undefined) =>
    q?.count
      ? [
          { label: 'p50', value: q.p50, color: C.green },
          { label: 'p90', value: q.p90, color: C.yellow },
          { label: 'p99', value: q.p99, color: C.red },
        ]
      : [];
  const qline = (q: Quantiles | undefined) =>
    q?.count ? `${q.count} tasks · mean ${fmt(q.mean, ' ms')} · p50 ${fmt(q.p50, ' ms')} · p90 ${fmt(q.p90, ' ms')} · p99 ${fmt(q.p99, ' ms')} · max ${fmt(q.max, ' ms')}` : 'no bot task yet';

  const workers = [...p.workers].sort((a, b) => a.threadId - b.threadId);
  const ratio = p.spawnToComputeCpuRatio;
  const workerRows = workers.map((w) => ({
    label: `worker #${w.threadId}${w.respawn ? ' ↻' : ''}${w.alive ? '' : ' (gone)'}`,
    sub: `${w.tasks} tasks`,
    values: [w.spawnCpuMs, w.computeCpuMs, w.warmMs ?? w.onlineMs, w.computeWallMs],
  }));

  const degradedEntries = Object.entries(p.counters.degraded ?? {}).map(([k, v]): [string, number, string] => [`degraded: ${k}`, v, C.orange]);
  const failEntries = Object.entries(p.counters.searchFailures ?? {}).map(([k, v]): [string, number, string] => [`failed: ${k}`, v, C.red]);
  const moveEntries = Object.entries(p.counters.botMoves ?? {}).map(([k, v]): [string, number, string] => [`moves: ${k}`, v, C.green]);
  const counters: [string, number, string][] = [
    ...moveEntries,
    ...degradedEntries,
    ['deadline hits', p.counters.deadlineHits ?? 0, C.yellow],
    ...failEntries,
    ['shed', p.counters.shed ?? 0, C.red],
    ['respawns', p.counters.respawns ?? p.respawns, C.pink],
  ];

  gridEl.innerHTML = [
    card('Pool size and how it was decided', `${p.ready ? 'ready' : 'warming up'}`, coresDiagram(p), false, 'sizing'),
    card(
      'Spawn cost against compute, per worker',
      ratio === null ? 'no compute yet' : `spawn CPU / compute CPU = ${fmt(ratio)}`,
      `${groupedBars({
        rows: workerRows,
        series: [
          { name: 'spawn CPU', color: C.orange },
          { name: 'compute CPU', color: C.green },
          { name: 'spawn wall (to warm)', color: C.yellow },
          { name: 'compute wall', color: C.blue },
        ],
        unit: ' ms',
        label: 'spawn and compute per worker',
      })}
${legend([
  { name: 'spawn CPU (load + warm-up)', color: C.orange },
  { name: 'compute CPU (bot tasks)', color: C.green },
  { name: 'spawn wall (creation → warm)', color: C.yellow },
  { name: 'compute wall', color: C.blue },
])}
<p class="note">Totals: spawn ${fmt(p.spawnCpuMs, ' ms')} CPU, compute ${fmt(p.computeCpuMs, ' ms')} CPU. Workers are spawned once and kept warm, so the spawn cost is paid once and amortised over every bot move.</p>`,
      true,
      'spawn',
    ),
    card('Worker start-up', `warm-up ${fmt(p.warmupMs, ' ms')}`, warmupTimeline(p), false, 'startup'),
    card(
      'Queue depth',
      `bound ${p.queue.bound}`,
      lineChart({
        series: [
          { name: 'waiting', color: C.orange, values: col('depth'), area: true },
          { name: 'in flight', color: C.blue, values: col('inFlight') },
        ],
        refs: [
          { value: p.queue.bound, label: `bound ${p.queue.bound}`, color: C.red },
          { value: p.queue.bound * 0.9, label: 'shed at 90%', color: C.yellow },
        ],
        seconds: span,
        label: 'queue depth over time',
        yMax: ceil4(Math.max(4, ...col('depth'), ...col('inFlight')) * 1.2),
      }) +
        legend([
          { name: 'waiting for a worker', color: C.orange },
          { name: 'running or queued (in flight)', color: C.blue },
        ]),
      false,
      'queue',
    ),
    card('Two classes of work', 'bot moves first; analysis on idle workers, yielding to them', classesCard(p), true, 'classes'),
    card(
      'Queue wait',
      'bot moves: submission → start on a worker',
      `${histogram({ buckets: qw, color: C.orange, markers: markers(t?.queueWaitMs), label: 'queue wait histogram' })}<p class="note">${qline(t?.queueWaitMs)}</p>`,
      false,
      'queue-wait',
    ),
    card(
      'Run time',
      'bot moves: wall time inside the worker',
      `${histogram({ buckets: run, color: C.green, markers: markers(t?.runMs), label: 'run time histogram' })}<p class="note">${qline(t?.runMs)}${t?.cpuMs?.count ? `<br>CPU per task: p50 ${fmt(t.cpuMs.p50, ' ms')} · p99 ${fmt(t.cpuMs.p99, ' ms')}` : ''}</p>`,
      false,
      'run-time',
    ),
    card(
      'Main event-loop delay',
      `utilisation ${Math.round(p.eventLoop.utilization * 100)}%`,
      lineChart({
        series: [
          { name: 'max', color: C.red, values: col('loopMax'), dashed: true },
          { name: 'p99', color: C.pink, values: col('loopP99'), area: true },
          { name: 'p50', color: C.green, values: col('loopP50') },
        ],
        unit: '',
        seconds: span,
        label: 'event loop delay over time',
        minMax: 1,
      }) +
        legend([
          { name: 'p50 ms', color: C.green },
          { name: 'p99 ms', color: C.pink },
          { name: 'max ms', color: C.red },
        ]),
      false,
      'loop',
    ),
    card(
      'Utilisation',
      'pool workers and main thread',
      `<div class="gauges">${gauge(p.utilization, 'bot pool', C.teal)}${gauge(p.eventLoop.utilization, 'main event loop', C.pink)}</div>${lineChart({
        series: [
          { name: 'pool', color: C.teal, values: col('util').map((v) => v * 100) },
          { name: 'bot moves', color: C.green, values: col('utilBots').map((v) => v * 100) },
          { name: 'analysis', color: C.blue, values: col('utilAnalysis').map((v) => v * 100) },
          { name: 'event loop', color: C.pink, values: col('elu').map((v) => v * 100) },
        ],
        yMax: 100,
        unit: '%',
        seconds: span,
        height: 120,
        label: 'utilisation over time',
      })}`,
      false,
      'util',
    ),
    card(
      'Bot moves, degradation and shedding',
      'since start',
      counterBars(counters) +
        lineChart({
          series: [
            { name: 'bot moves/s', color: C.green, values: rate('moves') },
            { name: 'degraded/s', color: C.orange, values: rate('degraded') },
            { name: 'shed/s', color: C.red, values: rate('shed') },
          ],
          seconds: span,
          height: 120,
          label: 'rates over time',
          minMax: 1,
        }) +
        legend([
          { name: 'bot moves / s', color: C.green },
          { name: 'degraded / s', color: C.orange },
          { name: 'shed / s', color: C.red },
        ]),
      false,
      'counters',
    ),
    card(
      'Active games and sockets',
      `${p.games} games · ${p.sockets} sockets`,
      lineChart({
        series: [
          { name: 'games', color: C.yellow, values: col('games'), area: true },
          { name: 'sockets', color: C.blue, values: col('sockets') },
        ],
        seconds: span,
        label: 'games and sockets over time',
        yMax: ceil4(Math.max(4, ...col('games'), ...col('sockets')) * 1.2),
      }) +
        legend([
          { name: 'active games', color: C.yellow },
          { name: 'WebSocket connections', color: C.blue },
        ]),
      false,
      'games',
    ),
  ].join('');
}

void poll();
void pollMetrics();
setInterval(() => void poll(), 1000);
setInterval(() => void pollMetrics(), 3000);
setInterval(render, 2000);

/** Bot moves against analysis: queue wait and run time side by side, and how analysis yields. */
function classesCard(p: PoolReport): string {
  const c = p.classes;
  if (!c) return '<p class="note">the pool is not running</p>';
  const row = (label: string, q: { queueWaitMs: Quantiles; runMs: Quantiles; utilization: number; queued: number }) => ({
    label,
    sub: `${q.runMs.count} tasks · ${Math.round(q.utilization * 100)}% busy`,
    values: [q.queueWaitMs.p50, q.queueWaitMs.p99, q.runMs.p50, q.runMs.p99],
  });
  const y = c.preemption.yieldMs;
  const series = [
    { name: 'queue wait p50', color: C.yellow },
    { name: 'queue wait p99', color: C.orange },
    { name: 'run p50', color: C.green },
    { name: 'run p99', color: C.teal },
  ];
  return `${groupedBars({ rows: [row('bot moves', c.interactive), row('analysis', c.analysis)], series, unit: ' ms', label: 'queue wait and run time by class' })}${legend(series)}<p class="note">Analysis yielded its worker to a bot move ${c.preemption.count} times${y.count ? ` (yield p50 ${fmt(y.p50, ' ms')} · p99 ${fmt(y.p99, ' ms')})` : ''}, re-running ${fmt(c.preemption.wastedCpuMs, ' ms')} of CPU. Waiting: ${c.interactive.queued} bot moves, ${c.analysis.queued} analysis positions.</p>`;
}
