// Server configuration: read once from environment variables, validated, with defaults.
// Every variable is documented in README.md under "Configuration".

import { isBotLevel, type BotLevel } from '../bot-engine/bots/levels.ts';
import { WORKER_NICE } from './thread-priority.ts';

export interface Config {
  port: number;
  host: string;
  logLevel: string;
  /** Pretty logs for a terminal (development only). */
  prettyLogs: boolean;
  dataDir: string;
  /** Explicit worker count; null = usable cores − reserved cores. */
  botWorkers: number | null;
  reservedCores: number;
  /** The OS nice value (0–19) of the bot workers and the SQLite writer and checkpoint threads:
   * above the event loop's, so it preempts them. */
  workerNice: number;
  /** Bound on bot searches waiting for a worker. */
  maxQueue: number;
  /** Wall-clock cap on one bot move search, queue wait included. */
  botDeadlineMs: number;
  /** Level of the warm-up search every worker runs at boot. */
  warmupLevel: BotLevel;
  /** How long boot may take to load and warm all workers. */
  warmupTimeoutMs: number;
  /** cgroup filesystem root read for the container CPU quota. */
  cgroupRoot: string;
  /** Compiled worker file; null = dist/server/pool/worker.js. */
  workerFile: string | null;
  maxGames: number;
  /** Browser origins allowed to open a WebSocket; empty = same host only. `*` = any. */
  allowedOrigins: string[];
  wsMaxPayload: number;
  wsMaxMessageBytes: number;
  wsMessagesPerSecond: number;
  wsBurst: number;
  heartbeatMs: number;
  maxBufferedBytes: number;
  shutdownGraceMs: number;
  /** Seconds before a game nobody plays ends as abandoned (see ExpirySettings). */
  expireOpenSeatSeconds: number;
  expireAwaySeconds: number;
  expireIdleSeconds: number;
  /** Finished games kept in memory beyond those being watched. */
  finishedCache: number;
  /** Game analyses waiting or running at once; past it POST …/analysis answers 429. */
  maxAnalyses: number;
  /** How long a hint may wait for an idle worker before it is answered `hint_busy`. */
  hintWaitMs: number;
  /** Days a guest (a player without a passkey) who holds no seat in any game may go unseen
   * before the sweep removes them and their sessions (server/players/sweeper.ts). */
  guestIdleDays: number;
  /** Per client IP: creates, seat takes and rematches per minute. */
  createsPerMinute: number;
  /** Per client IP: open WebSocket connections. */
  wsPerIp: number;
  /** Per client IP: games it created that are not finished (waiting or being played) on this
   * instance; past it POST /api/games answers 429, so one address cannot fill `maxGames`. */
  gamesPerIp: number;
  /** Watchers (connections without a seat) per game. */
  watchersPerGame: number;
  /** Behind a reverse proxy: take the client IP and scheme from X-Forwarded-For/-Proto. */
  trustProxy: boolean;
  /** The origin browsers reach this server at (passkeys are bound to its host name, and a
   * cookie-carried change must come from it); null = each request's own scheme and Host. */
  publicOrigin: string | null;
  /** PostgreSQL instead of the SQLite file: games shared by several instances; null = SQLite. */
  databaseUrl: string | null;
  /** Redis relaying connections to the instance owning their game; null = none. */
  redisUrl: string | null;
  /** This instance's name in the cluster (unique per process); null = host name and a random suffix. */
  instanceId: string | null;
  /** How long a game's owner lease lasts unrenewed: a dead instance's games move after it. */
  leaseSeconds: number;
}

export const DEFAULTS: Config = {
  port: 3000,
  host: '127.0.0.1',
  logLevel: 'info',
  prettyLogs: false,
  dataDir: 'data',
  botWorkers: null,
  reservedCores: 1,
  workerNice: WORKER_NICE,
  maxQueue: 64,
  botDeadlineMs: 2000,
  warmupLevel: 'hard',
  warmupTimeoutMs: 20000,
  cgroupRoot: '/sys/fs/cgroup',
  workerFile: null,
  maxGames: 1000,
  allowedOrigins: [],
  wsMaxPayload: 64 * 1024,
  wsMaxMessageBytes: 4096,
  wsMessagesPerSecond: 10,
  wsBurst: 20,
  heartbeatMs: 30000,
  maxBufferedBytes: 1024 * 1024,
  shutdownGraceMs: 5000,
  expireOpenSeatSeconds: 3600,
  expireAwaySeconds: 3600,
  expireIdleSeconds: 24 * 3600,
  finishedCache: 100,
  maxAnalyses: 100,
  hintWaitMs: 5000,
  guestIdleDays: 30,
  createsPerMinute: 30,
  wsPerIp: 20,
  gamesPerIp: 20,
  watchersPerGame: 50,
  trustProxy: false,
  publicOrigin: null,
  databaseUrl: null,
  redisUrl: null,
  instanceId: null,
  leaseSeconds: 10,
};

/** The longest a graceful shutdown may take before the process gives up (exit 1): its two waits
 * of `shutdownGraceMs` (bot moves in flight, then closing sockets) and 5 s for the rest. */
export function shutdownBudgetMs(config: Pick<Config, 'shutdownGraceMs'>): number {
  return config.shutdownGraceMs * 2 + 5000;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return n;
}

function str(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** `https://play.example.org` as an origin (no path), or null when unset. */
function publicOrigin(raw: string | undefined): string | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`TESSERA_PUBLIC_ORIGIN must be an origin such as https://play.example.org, got ${JSON.stringify(raw)}`);
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash)
    throw new ConfigError(`TESSERA_PUBLIC_ORIGIN must be an http(s) origin with no path, got ${JSON.stringify(raw)}`);
  return url.origin;
}

/** Builds the configuration from `env` (process.env by default) and explicit overrides. */
export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const logLevel = str(env, 'LOG_LEVEL', DEFAULTS.logLevel);
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(logLevel)}`);
  const warmupLevel = str(env, 'TESSERA_WARMUP_LEVEL', DEFAULTS.warmupLevel);
  if (!isBotLevel(warmupLevel)) throw new ConfigError(`TESSERA_WARMUP_LEVEL must be a bot level, got ${JSON.stringify(warmupLevel)}`);
  const workers = env.TESSERA_BOT_WORKERS;
  const config: Config = {
    port: int(env, 'PORT', DEFAULTS.port, 0, 65535),
    host: str(env, 'HOST', DEFAULTS.host),
    logLevel,
    prettyLogs: str(env, 'TESSERA_PRETTY_LOGS', env.NODE_ENV === 'development' ? '1' : '0') === '1',
    dataDir: str(env, 'TESSERA_DATA_DIR', DEFAULTS.dataDir),
    botWorkers: workers === undefined || workers === '' || workers === 'auto' ? null : int(env, 'TESSERA_BOT_WORKERS', 1, 1, 256),
    reservedCores: int(env, 'TESSERA_RESERVED_CORES', DEFAULTS.reservedCores, 0, 256),
    workerNice: int(env, 'TESSERA_WORKER_NICE', DEFAULTS.workerNice, 0, 19),
    maxQueue: int(env, 'TESSERA_MAX_QUEUE', DEFAULTS.maxQueue, 1, 100000),
    botDeadlineMs: int(env, 'TESSERA_BOT_DEADLINE_MS', DEFAULTS.botDeadlineMs, 50, 60000),
    warmupLevel,
    warmupTimeoutMs: int(env, 'TESSERA_WARMUP_TIMEOUT_MS', DEFAULTS.warmupTimeoutMs, 100, 600000),
    cgroupRoot: str(env, 'TESSERA_CGROUP_ROOT', DEFAULTS.cgroupRoot),
    workerFile: env.TESSERA_WORKER_FILE || null,
    maxGames: int(env, 'TESSERA_MAX_GAMES', DEFAULTS.maxGames, 1, 1000000),
    allowedOrigins: str(env, 'TESSERA_ALLOWED_ORIGINS', '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    wsMaxPayload: int(env, 'TESSERA_WS_MAX_PAYLOAD', DEFAULTS.wsMaxPayload, 1024, 16 * 1024 * 1024),
    wsMaxMessageBytes: int(env, 'TESSERA_WS_MAX_MESSAGE', DEFAULTS.wsMaxMessageBytes, 256, 16 * 1024 * 1024),
    wsMessagesPerSecond: int(env, 'TESSERA_WS_RATE', DEFAULTS.wsMessagesPerSecond, 1, 10000),
    wsBurst: int(env, 'TESSERA_WS_BURST', DEFAULTS.wsBurst, 1, 10000),
    heartbeatMs: int(env, 'TESSERA_HEARTBEAT_MS', DEFAULTS.heartbeatMs, 100, 600000),
    maxBufferedBytes: int(env, 'TESSERA_WS_MAX_BUFFERED', DEFAULTS.maxBufferedBytes, 1024, 1024 * 1024 * 1024),
    shutdownGraceMs: int(env, 'TESSERA_SHUTDOWN_GRACE_MS', DEFAULTS.shutdownGraceMs, 0, 600000),
    expireOpenSeatSeconds: int(env, 'TESSERA_EXPIRE_OPEN_SEAT_SECONDS', DEFAULTS.expireOpenSeatSeconds, 1, 365 * 86400),
    expireAwaySeconds: int(env, 'TESSERA_EXPIRE_AWAY_SECONDS', DEFAULTS.expireAwaySeconds, 1, 365 * 86400),
    expireIdleSeconds: int(env, 'TESSERA_EXPIRE_IDLE_SECONDS', DEFAULTS.expireIdleSeconds, 1, 365 * 86400),
    finishedCache: int(env, 'TESSERA_FINISHED_CACHE', DEFAULTS.finishedCache, 0, 100000),
    maxAnalyses: int(env, 'TESSERA_MAX_ANALYSES', DEFAULTS.maxAnalyses, 1, 100000),
    hintWaitMs: int(env, 'TESSERA_HINT_WAIT_MS', DEFAULTS.hintWaitMs, 100, 60000),
    guestIdleDays: int(env, 'TESSERA_GUEST_IDLE_DAYS', DEFAULTS.guestIdleDays, 1, 3650),
    createsPerMinute: int(env, 'TESSERA_CREATES_PER_MINUTE', DEFAULTS.createsPerMinute, 1, 1000000),
    wsPerIp: int(env, 'TESSERA_WS_PER_IP', DEFAULTS.wsPerIp, 1, 1000000),
    gamesPerIp: int(env, 'TESSERA_GAMES_PER_IP', DEFAULTS.gamesPerIp, 1, 1000000),
    watchersPerGame: int(env, 'TESSERA_WATCHERS_PER_GAME', DEFAULTS.watchersPerGame, 0, 1000000),
    trustProxy: str(env, 'TESSERA_TRUST_PROXY', '0') === '1',
    publicOrigin: publicOrigin(env.TESSERA_PUBLIC_ORIGIN),
    databaseUrl: env.TESSERA_DATABASE_URL || null,
    redisUrl: env.TESSERA_REDIS_URL || null,
    instanceId: env.TESSERA_INSTANCE_ID || null,
    leaseSeconds: int(env, 'TESSERA_LEASE_SECONDS', DEFAULTS.leaseSeconds, 1, 3600),
    ...overrides,
  };
  if (config.databaseUrl && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) throw new ConfigError('TESSERA_DATABASE_URL must be a postgres:// URL');
  if (config.redisUrl && !config.databaseUrl) throw new ConfigError('TESSERA_REDIS_URL needs TESSERA_DATABASE_URL: instances share games through PostgreSQL');
  if (config.redisUrl && !/^rediss?:\/\//.test(config.redisUrl)) throw new ConfigError('TESSERA_REDIS_URL must be a redis:// or rediss:// URL');
  if (config.wsMaxMessageBytes > config.wsMaxPayload) throw new ConfigError('TESSERA_WS_MAX_MESSAGE must not exceed TESSERA_WS_MAX_PAYLOAD');
  return config;
}
