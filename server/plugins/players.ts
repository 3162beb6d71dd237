// Players, sessions and passkeys, as `app.accounts`: the database's account store (its writes
// watched with the games', plugins/store.ts), swept of expired sessions and idle guests
// (players/sweeper.ts).

import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import fp from 'fastify-plugin';
import type { PlayerStore } from '../players/store.ts';
import { PlayerSweeper } from '../players/sweeper.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: PlayerStore;
  }
}

export const playersPlugin = fp(
  async (app: FastifyInstance) => {
    const accounts = app.watched.accounts;
    app.decorate('accounts', accounts);
    const sweeper = new PlayerSweeper(accounts, app.config.guestIdleDays, app.log as Logger);
    app.addHook('onReady', async () => sweeper.start());
    app.addHook('onClose', () => sweeper.stop());
  },
  { name: 'accounts', fastify: '5.x', dependencies: ['config', 'store'] },
);
