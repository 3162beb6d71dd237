// HTTP routes under autocannon (programmatic API): create, list, summary, /healthz, /metrics,
// against the real server (a child process on a loopback port). Each route is bounded in time.
//
//   node dist/bench/http/run.js [quick|full|tiny]

import { runCannon, type CannonResult } from '../lib/cannon.ts';
import { machine, machineLine, sampleProc, coresUsed, type MachineInfo } from '../lib/proc.ts';
import { type ServerLogSummary, startServer } from '../../support/server.ts';
import { fmt, progress, round, table } from '../lib/stats.ts';

export interface HttpOptions {
  /** Seconds per route. */
  seconds: number;
  connections: number;
  /** Open games created before the list is measured. */
  openGames: number;
}

export const HTTP_MODES: Record<'tiny' | 'quick' | 'full', HttpOptions> = {
  tiny: { seconds: 1, connections: 4, openGames: 20 },
  quick: { seconds: 3, connections: 10, openGames: 200 },
  full: { seconds: 10, connections: 10, openGames: 200 },
};

export interface RouteResult extends CannonResult {
  route: string;
  serverCpuCores: number | null;
  note?: string;
}

export interface HttpReport {
  machine: MachineInfo;
  machineEnd: MachineInfo;
  options: HttpOptions;
  routes: RouteResult[];
  serverExitCode: number | null;
  serverLog: ServerLogSummary;
}

const CREATE_BODY = JSON.stringify({ seats: [{ kind: 'person' }, { kind: 'bot', level: 'hard' }], listed: true });

export async function runHttp(o: HttpOptions): Promise<{ report: HttpReport; markdown: string }> {
  const m0 = machine();
  progress('http: starting the server');
  const server = await startServer();
  const routes: RouteResult[] = [];
  let code: number | null = null;
  try {
    for (let i = 0; i < o.openGames; i++) {
      const r = await fetch(`${server.url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CREATE_BODY });
      if (r.status !== 201) throw new Error(`creating a game answered ${r.status}`);
    }
    const one = ((await (await fetch(`${server.url}/api/games?limit=1`)).json()) as { games: { id: string }[] }).games[0].id;
    const cases: { route: string; path: string; method?: string; body?: string; note?: string }[] = [
      { route: 'GET /healthz', path: '/healthz' },
      { route: 'GET /api/games/:id (summary)', path: `/api/games/${one}` },
      { route: `GET /api/games (list, ${o.openGames} open)`, path: '/api/games' },
      { route: 'GET /metrics', path: '/metrics' },
      { route: 'POST /api/games (create)', path: '/api/games', method: 'POST', body: CREATE_BODY },
    ];
    for (const c of cases) {
      progress(`http: ${c.route} for ${o.seconds} s, ${o.connections} connections`);
      const p0 = sampleProc(server.pid);
      const r = await runCannon({
        title: c.route,
        url: `${server.url}${c.path}`,
        connections: o.connections,
        duration: o.seconds,
        method: c.method,
        body: c.body,
        headers: c.body ? { 'content-type': 'application/json' } : undefined,
      });
      const p1 = sampleProc(server.pid);
      routes.push({ ...r, route: c.route, serverCpuCores: p0 && p1 ? round(coresUsed(p0, p1), 2) : null });
      progress(`  ${r.requestsPerSec} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, ${r.errors + r.non2xx} errors`);
    }
    // The list again, now that create has filled the server with open games.
    const open = ((await (await fetch(`${server.url}/api/pool`)).json()) as { games: number }).games;
    progress(`http: GET /api/games again with ${open} open games`);
    const again = await runCannon({ title: 'list after create', url: `${server.url}/api/games`, connections: o.connections, duration: o.seconds });
    routes.push({ ...again, route: `GET /api/games (list, ${open} open)`, serverCpuCores: null, note: 'after the create run' });
    progress(`  ${again.requestsPerSec} req/s, p99 ${again.latencyMs.p99} ms`);
  } finally {
    code = await server.stop();
  }
  const report: HttpReport = { machine: m0, machineEnd: machine(), options: o, routes, serverExitCode: code, serverLog: server.logSummary() };
  return { report, markdown: httpMarkdown(report) };
}

function httpMarkdown(r: HttpReport): string {
  const rows = r.routes.map((x) => [x.route, x.requestsPerSec, x.latencyMs.p50, x.latencyMs.p90, x.latencyMs.p99, x.latencyMs.max, x.errors + x.non2xx + x.timeouts, fmt(x.serverCpuCores, 2)]);
  return `Measured by \`bench/http/run.ts\`: autocannon (programmatic API, in the bench process) against the real server (\`dist/server/main.js\`, a child process on 127.0.0.1, one bot worker, in-memory store, LOG_LEVEL=warn), ${r.options.connections} connections, ${r.options.seconds} s per route, no pipelining. No games are being played here: this is the HTTP layer alone (the games benchmark below measures HTTP under game load). Machine: ${machineLine(r.machine, r.machineEnd)}. autocannon and the server share the machine's ${r.machine.cpus} cores, so req/s is a lower bound of what the server alone could do.

${table(['route', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'errors', 'server CPU (cores)'], rows)}

Server exit code after SIGTERM: ${r.serverExitCode}; ${r.serverLog.warn} warnings and ${r.serverLog.error} errors logged.
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = (process.argv[2] ?? 'quick') as keyof typeof HTTP_MODES;
  const { writeReport } = await import('../report.ts');
  const { report, markdown } = await runHttp(HTTP_MODES[mode]);
  writeReport('http', 'HTTP routes', markdown, report);
}
