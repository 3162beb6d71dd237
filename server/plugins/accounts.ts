// Players, sessions and passkeys, as `app.accounts`: kept in the game store's own database, and
// swept of expired sessions and idle guests (accounts/sweeper.ts).

import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import fp from 'fastify-plugin';
import { accountsBeside } from '../accounts/open.ts';
import type { AccountStore } from '../accounts/store.ts';
import { AccountSweeper } from '../accounts/sweeper.ts';
import { watchedAccounts } from '../accounts/watched-accounts.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountStore;
  }
}

export const accountsPlugin = fp(
  async (app: FastifyInstance) => {
    // Watched by the games' store: a failing account write shows in readiness like a game write.
    const accounts = watchedAccounts(accountsBeside(app.store), (op, fn) => app.games.watchWrite(op, fn));
    app.decorate('accounts', accounts);
    const sweeper = new AccountSweeper(accounts, app.config.guestIdleDays, app.log as Logger);
    app.addHook('onReady', async () => sweeper.start());
    app.addHook('onClose', () => sweeper.stop());
  },
  { name: 'accounts', fastify: '5.x', dependencies: ['config', 'store', 'games'] },
);
