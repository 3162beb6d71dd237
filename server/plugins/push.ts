// Web Push, as `app.push`: the turn notifications (push/notifications.ts) signed with the
// server's VAPID keys, read from the database or made there at first start (push/vapid.ts).
// The games call its `yourTurn` and `reminder` (server/games/turn-events.ts: `GameService.hearTurns`); messages gathered
// or in flight are sent before the store closes.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import type { GameService } from '../games/service.ts';
import { type PushCounts, TurnNotifications } from '../push/notifications.ts';
import { vapidKeysOf, vapidSubject } from '../push/vapid.ts';
import { waitingGames } from '../push/waiting.ts';

declare module 'fastify' {
  interface FastifyInstance {
    push: TurnNotifications;
  }
}

/** Whether the player has a connection to the game's room here (another instance's watchers
 * are not known: its players may get a notification they did not need). */
export function watchingHere(games: GameService): (playerId: string, gameId: string) => boolean {
  return (playerId, gameId) => {
    const room = games.loaded(gameId);
    const seat = room?.seatOfPlayer(playerId) ?? null;
    return room !== undefined && seat !== null && room.view(null).seats[seat]?.connected === true;
  };
}

/** The metric's outcomes (a message is counted by its pushes). */
const METRIC_OUTCOMES: Partial<Record<keyof PushCounts, string>> = { sent: 'sent', gone: 'gone', failed: 'failed', retried: 'retried', skippedWatching: 'watching', skippedClaimed: 'claimed' };

export const pushPlugin = fp(
  async (app: FastifyInstance) => {
    const { backend, games, store, config } = app;
    const keys = await vapidKeysOf(backend.push);
    const push = new TurnNotifications({
      store: backend.push,
      keys,
      subject: vapidSubject(config.publicOrigin),
      isWatching: watchingHere(games),
      waitingCount: async (playerId) => (await waitingGames(store, games, playerId)).length,
      log: app.log as Logger,
      onCount: (outcome, n) => {
        const label = METRIC_OUTCOMES[outcome];
        if (label) app.metrics.push.inc({ outcome: label }, n);
      },
    });
    app.decorate('push', push);
    games.hearTurns(push);
    app.addHook('onReady', async () => push.startPruning());
    // Registered after the store: closed before it.
    app.addHook('onClose', () => push.close());
  },
  { name: 'push', fastify: '5.x', dependencies: ['config', 'metrics', 'store', 'games'] },
);
