// Players, sessions and passkeys, as `app.accounts`: kept in the game store's own database.

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { accountsBeside } from '../accounts/open.ts';
import type { AccountStore } from '../accounts/store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    accounts: AccountStore;
  }
}

export const accountsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('accounts', accountsBeside(app.store));
  },
  { name: 'accounts', fastify: '5.x', dependencies: ['store'] },
);
