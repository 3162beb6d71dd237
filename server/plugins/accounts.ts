// Players, sessions and passkeys, as `app.accounts`: the database's account store (its writes
// watched with the games', plugins/store.ts), swept of expired sessions and idle guests
// (accounts/sweeper.ts).

import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import fp from 'fastify-plugin';
import type { AccountStore } from '../accounts/store.ts';
import { AccountSweeper } from '../accounts/sweeper.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountStore;
  }
}

export const accountsPlugin = fp(
  async (app: FastifyInstance) => {
    const accounts = app.watched.accounts;
    app.decorate('accounts', accounts);
    const sweeper = new AccountSweeper(accounts, app.config.guestIdleDays, app.log as Logger);
    app.addHook('onReady', async () => sweeper.start());
    app.addHook('onClose', () => sweeper.stop());
  },
  { name: 'accounts', fastify: '5.x', dependencies: ['config', 'store'] },
);
