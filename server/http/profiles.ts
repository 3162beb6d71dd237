// A player's profile page over HTTP (server/profiles/ reads and counts it).

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CodedError } from '../errors.ts';
import { PROFILE_WINDOW, profileReader } from '../profiles/profile.ts';
import { PlayerParams, PlayerProfile } from '../wire/profile.ts';

const error = { $ref: 'Error#' } as const;

async function routes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const profileOf = profileReader(app.store, app.players);
  app.get(
    '/api/players/:id/profile',
    {
      schema: {
        tags: ['players'],
        summary: `A player's profile: name, results by player count and by option, recent games, and what analyses of their games found (over their latest ${PROFILE_WINDOW} finished games)`,
        params: PlayerParams,
        response: { 200: PlayerProfile, 400: error, 404: error },
      },
    },
    async (request) => {
      const profile = await profileOf(request.params.id);
      if (!profile) throw new CodedError('unknown_player', `no player ${JSON.stringify(request.params.id)}`);
      return profile;
    },
  );
}

/** Encapsulated, refused at boot without the store and the players. */
export const profileRoutes = fp(routes, { name: 'profile-routes', fastify: '5.x', encapsulate: true, dependencies: ['store', 'players'] });
