// pino JSON logs; pino-pretty only when asked for (development). Seat tokens never reach a log:
// they travel in WebSocket frames and request bodies, which are not logged.

import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';

export function createLogger(config: Pick<Config, 'logLevel' | 'prettyLogs'>): Logger {
  return pino({
    level: config.logLevel,
    base: { service: 'tessera' },
    redact: ['req.headers.cookie', 'req.headers.authorization', '*.token'],
    ...(config.prettyLogs ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss.l' } } } : {}),
  });
}

/** At most `lines` log lines per `periodMs` for one kind of client fault; the next line after a
 * full period says how many were left out. Faults stay counted in /metrics. */
export class LogBudget {
  private readonly lines: number;
  private readonly periodMs: number;
  private periodStart = 0;
  private used = 0;
  private suppressed = 0;

  constructor(lines: number, periodMs: number) {
    this.lines = lines;
    this.periodMs = periodMs;
  }

  warn(log: Logger, fields: object, message: string): void {
    this.write(log, 'warn', fields, message);
  }

  write(log: Logger, level: 'info' | 'warn' | 'error', fields: object, message: string): void {
    const now = Date.now();
    if (now - this.periodStart >= this.periodMs) {
      this.periodStart = now;
      this.used = 0;
    }
    if (this.used >= this.lines) {
      this.suppressed++;
      return;
    }
    this.used++;
    const left = this.suppressed;
    this.suppressed = 0;
    log[level](left > 0 ? { ...fields, suppressedBefore: left } : fields, message);
  }
}

/** One LogBudget per cause (a message a client can trigger): `lines` per `periodMs` each. */
export class CauseBudgets {
  private readonly budgets = new Map<string, LogBudget>();
  private readonly lines: number;
  private readonly periodMs: number;

  constructor(lines: number, periodMs: number) {
    this.lines = lines;
    this.periodMs = periodMs;
  }

  write(log: Logger, level: 'info' | 'warn' | 'error', fields: object, message: string, cause = message): void {
    const budget = this.budgets.get(cause) ?? new LogBudget(this.lines, this.periodMs);
    this.budgets.set(cause, budget);
    budget.write(log, level, fields, message);
  }
}
