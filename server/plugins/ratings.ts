// Ratings, as `app.ratings`: read from the database's rating store (the game store's rated ends
// write them, in the end's own transaction).

import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RatingStore } from '../ratings/store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    ratings: RatingStore;
  }
}

export const ratingsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('ratings', app.backend.ratings);
  },
  { name: 'ratings', fastify: '5.x', dependencies: ['store'] },
);
