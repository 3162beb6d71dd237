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
