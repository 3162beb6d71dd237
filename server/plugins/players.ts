// Players, sessions and passkeys, as `app.players`: the database's player store (its writes
// watched with the games', plugins/store.ts), swept of expired sessions and idle guests
// (players/sweeper.ts).

import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import fp from 'fastify-plugin';
import type { PlayerStore } from '../players/store.ts';
import { PlayerSweeper } from '../players/sweeper.ts';

declare module 'fastify' {
  interface FastifyInstance {
    players: PlayerStore;
  }
}

export const playersPlugin = fp(
  async (app: FastifyInstance) => {
    const players = app.watched.players;
    app.decorate('players', players);
    const sweeper = new PlayerSweeper(players, app.config.guestIdleDays, app.log as Logger);
    app.addHook('onReady', async () => sweeper.start());
    app.addHook('onClose', () => sweeper.stop());
  },
  { name: 'players', fastify: '5.x', dependencies: ['config', 'store'] },
);
