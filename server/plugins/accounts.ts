// Players, sessions and passkeys, as `app.accounts`: kept in the game store's own database.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { accountsBeside } from '../accounts/open.ts';
import type { AccountStore } from '../accounts/store.ts';
import { watchedAccounts } from '../accounts/watched-accounts.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountStore;
  }
}

export const accountsPlugin = fp(
  async (app: FastifyInstance) => {
    // Watched by the games' store: a failing account write shows in readiness like a game write.
    app.decorate(
      'accounts',
      watchedAccounts(accountsBeside(app.store), (op, fn) => app.games.watchWrite(op, fn)),
    );
  },
  { name: 'accounts', fastify: '5.x', dependencies: ['store', 'games'] },
);
