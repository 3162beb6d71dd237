// Web Push's routes: the server's VAPID public key, the signed-in player's devices (subscribe,
// list, remove) and the games waiting for them (the page's title and badge). Schemas and calls:
// sending lives in push/notifications.ts.

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { CodedError } from '../errors.ts';
import { newDeviceId, type PushDevice } from '../push/store.ts';
import { waitingGames } from '../push/waiting.ts';
import { Device, DeviceParams, Devices, PushKey, SubscribeBody, Waiting } from '../wire/push.ts';
import { signedIn } from './session.ts';

const error = { $ref: 'Error#' } as const;

async function routes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { backend, config, games, push, store } = app;
  const limited = { rateLimit: { max: config.createsPerMinute, timeWindow: 60_000 } };

  app.get('/api/push/key', { schema: { tags: ['push'], summary: "The server's VAPID public key, to subscribe with", response: { 200: PushKey } } }, async () => ({
    publicKey: push.publicKey,
  }));

  app.get('/api/me/devices', { schema: { tags: ['push'], summary: "The player's devices that get notifications, oldest first", response: { 200: Devices, 401: error } } }, async (request) => {
    const player = signedIn(request);
    return { devices: (await backend.push.devices(player.id)).map(deviceOf) };
  });

  app.post(
    '/api/me/devices',
    {
      schema: {
        tags: ['push'],
        summary: "Notify this device of the player's turns (the browser's push subscription); a subscription stored already moves to this player, keeping its id",
        body: SubscribeBody,
        response: { 201: Device, 400: error, 401: error, 403: error, 429: error },
      },
      config: limited,
    },
    async (request, reply) => {
      const player = signedIn(request);
      const { subscription, label } = request.body;
      const device: PushDevice = {
        id: newDeviceId(),
        playerId: player.id,
        endpoint: subscription.endpoint,
        p256dh: subscription.keys.p256dh,
        auth: subscription.keys.auth,
        label: label?.trim() || 'A device',
        createdAt: new Date().toISOString(),
      };
      if (!URL.canParse(device.endpoint)) throw new CodedError('bad_request', 'subscription.endpoint is not a URL');
      return reply.code(201).send(deviceOf(await backend.push.saveDevice(device)));
    },
  );

  app.delete(
    '/api/me/devices/:id',
    { schema: { tags: ['push'], summary: 'Stop notifying this device', params: DeviceParams, response: { 204: { type: 'null' }, 401: error, 403: error, 404: error } } },
    async (request, reply) => {
      const player = signedIn(request);
      if (!(await backend.push.removeDevice(player.id, request.params.id))) throw new CodedError('unknown_device', 'the player has no device with this id');
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/me/waiting',
    { schema: { tags: ['push'], summary: 'The games where it is the player’s turn (the tab title and the badge on "Your games")', response: { 200: Waiting, 401: error } } },
    async (request) => {
      const player = signedIn(request);
      const ids = await waitingGames(store, games, player.id);
      return { count: ids.length, games: ids };
    },
  );
}

function deviceOf(d: PushDevice): Device {
  return { id: d.id, label: d.label, createdAt: d.createdAt, endpointOrigin: new URL(d.endpoint).origin };
}

/** Encapsulated (its limits stay its own); needs the session plugin for `request.player`. */
export const pushRoutes = fp(routes, { name: 'push-routes', fastify: '5.x', encapsulate: true, dependencies: ['config', 'store', 'session', 'games', 'push'] });
