// Ratings, as `app.ratings`: read from the game store's own database (its rated ends write them).

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ratingsBeside } from '../ratings/open.ts';
import type { RatingStore } from '../ratings/store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ratings: RatingStore;
  }
}

export const ratingsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('ratings', ratingsBeside(app.store, app.accounts));
  },
  { name: 'ratings', fastify: '5.x', dependencies: ['store', 'accounts'] },
);
