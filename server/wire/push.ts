// Web Push's bodies and answers (a player's devices, the server's public key, the games waiting
// for the player) and the message a push carries to the service worker (client/src/sw.ts).

import Type, { type Static } from 'typebox';

export const PushKey = Type.Object({ publicKey: Type.String({ description: "the server's VAPID public key (RFC 8292), base64url: `applicationServerKey` for `pushManager.subscribe`" }) });

const Base64url = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+=*$', description });

/** What `PushSubscription.toJSON()` gives, and a name for the device. */
export const SubscribeBody = Type.Object(
  {
    subscription: Type.Object(
      {
        endpoint: Type.String({ minLength: 9, maxLength: 1000, pattern: '^https://', description: "the push service's URL for this browser (https)" }),
        expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
        keys: Type.Object({ p256dh: Base64url(200, "the browser's P-256 public key"), auth: Base64url(50, "the browser's auth secret") }, { additionalProperties: false }),
      },
      { additionalProperties: false },
    ),
    label: Type.Optional(Type.String({ maxLength: 60, description: 'what the player calls this device ("Firefox on Linux"); defaults to "A device"' })),
  },
  { additionalProperties: false },
);

export const Device = Type.Object({
  id: Type.String({ description: '`d_` and 16 base64url characters' }),
  label: Type.String(),
  createdAt: Type.String(),
  endpointOrigin: Type.String({ description: "the push service's origin (the endpoint itself is a secret of the device's)" }),
});

export const Devices = Type.Object({ devices: Type.Array(Device) });

export const DeviceParams = Type.Object({ id: Type.String({ maxLength: 40 }) }, { additionalProperties: false });

export const Waiting = Type.Object({
  count: Type.Integer({ description: 'games (not finished) where it is one of the player’s seats’ turn' }),
  games: Type.Array(Type.String(), { description: 'their ids, most recently created first (100 games looked at at most)' }),
});

/** A game a push message tells of. */
export const PushGame = Type.Object({
  gameId: Type.String(),
  /** The record's move count (0 for a challenge: the game is new). */
  turn: Type.Integer(),
  /** ms since the epoch: when the move's time runs out (a challenge: when the kept seat stops
   * waiting); null without one. */
  deadline: Type.Union([Type.Number(), Type.Null()]),
  /** The page that opens it, from the site's root. */
  url: Type.String(),
});

/** The payload of a push (JSON, encrypted as RFC 8291 says). `turn`: these games wait for the
 * player (folded into one notification); `reminder`: one game's deadline is near; `challenge`:
 * the player was challenged by name into a seat of one new game (`by` says who). */
export const PushMessage = Type.Object({
  kind: Type.Union([Type.Literal('turn'), Type.Literal('reminder'), Type.Literal('challenge')]),
  games: Type.Array(PushGame),
  /** Games waiting for the player when it was sent, where the server counted them. */
  waiting: Type.Union([Type.Integer(), Type.Null()]),
  /** A challenge only: the name of the player who made the game, or null (made without a session). */
  by: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

export type PushKey = Static<typeof PushKey>;
export type SubscribeBody = Static<typeof SubscribeBody>;
export type Device = Static<typeof Device>;
export type Devices = Static<typeof Devices>;
export type Waiting = Static<typeof Waiting>;
export type PushGame = Static<typeof PushGame>;
export type PushMessage = Static<typeof PushMessage>;
