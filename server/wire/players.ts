// The player API's bodies and answers (sessions, the player, passkeys, the player's games).
// The passkey bodies are what @simplewebauthn/browser's startRegistration/startAuthentication take
// and return: their inner fields are checked by the WebAuthn verification, not here.

import Type, { type Static } from 'typebox';
import { MAX_NAME_LENGTH } from './limits.ts';
import { TurnBasedPace } from './game.ts';

export const PlayerName = Type.String({
  minLength: 1,
  maxLength: MAX_NAME_LENGTH * 2,
  description: `1 to ${MAX_NAME_LENGTH} characters; unique among players (case, width and look-alike letters folded)`,
});

export const Me = Type.Object({
  id: Type.String({ description: '`p_` and 22 base64url characters' }),
  name: Type.String(),
  passkeys: Type.Integer({ description: 'passkeys registered: 0 for a guest, who is this browser only' }),
});

export const SessionReply = Type.Object({ player: Type.Union([Me, Type.Null()]) });

export const StartSessionBody = Type.Object({ name: Type.Optional(PlayerName) }, { additionalProperties: false });

export const RenameBody = Type.Object({ name: PlayerName }, { additionalProperties: false });

/** WebAuthn options (PublicKeyCredentialCreationOptionsJSON / …RequestOptionsJSON), passed as they are. */
export const PasskeyOptions = Type.Object({ challenge: Type.String() }, { additionalProperties: true });

/** A WebAuthn answer (RegistrationResponseJSON / AuthenticationResponseJSON). */
export const PasskeyAnswer = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 1400 }),
    rawId: Type.String({ maxLength: 1400 }),
    type: Type.Literal('public-key'),
    response: Type.Object({ clientDataJSON: Type.String({ maxLength: 4096 }) }, { additionalProperties: true }),
    clientExtensionResults: Type.Object({}, { additionalProperties: true }),
    authenticatorAttachment: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const MyGamesQuery = Type.Object(
  {
    finished: Type.Boolean({ default: false, description: 'finished games (by when they finished) instead of games still waiting or playing' }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    before: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const MyGame = Type.Object({
  id: Type.String(),
  createdAt: Type.String(),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
  seats: Type.Array(Type.String({ description: 'the seat holder’s name' }), { description: 'one name per seat; an open seat is ""' }),
  mySeats: Type.Array(Type.Integer(), { description: 'the seats this player holds' }),
  rated: Type.Boolean(),
  invited: Type.Optional(Type.Array(Type.Integer(), { description: 'open seats kept for this player (challenged by name): take one with POST /api/games/{id}/seats' })),
  pace: Type.Optional(TurnBasedPace),
  currentSeat: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'unfinished turn-based games: the seat to move (null while seats are open)' })),
  yourTurn: Type.Optional(Type.Boolean({ description: 'unfinished turn-based games: this player is to move' })),
  deadline: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: "unfinished turn-based games: when the current person's time runs out (epoch ms)" })),
});

export const MyGames = Type.Object({ games: Type.Array(MyGame), next: Type.Union([Type.String(), Type.Null()]) });

export type Me = Static<typeof Me>;
export type SessionReply = Static<typeof SessionReply>;
export type PasskeyAnswer = Static<typeof PasskeyAnswer>;
export type MyGame = Static<typeof MyGame>;
export type MyGames = Static<typeof MyGames>;
