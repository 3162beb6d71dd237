// Every error the server answers with, in one place: its code, where it can come from (HTTP with
// its status, or a WebSocket error frame) and what it means. docs/PROTOCOL.md lists the same
// codes (test/protocol-doc.test.ts checks both ways).

interface ErrorDef {
  /** HTTP status when an HTTP call can answer with it; null for WebSocket-only codes. */
  readonly status: number | null;
  /** Also sent in WebSocket error frames. */
  readonly ws: boolean;
  readonly meaning: string;
}

export const ERRORS = {
  bad_request: {
    status: 400,
    ws: false,
    meaning:
      'the request breaks the API: a malformed request line, path, header or body (a path that is not valid percent-encoding, a path parameter over 100 characters), a field outside its schema or of another type, or a body on a call that takes none; `message` says which',
  },
  bad_token: { status: 403, ws: true, meaning: 'the token holds no seat in this game' },
  cross_origin: { status: 403, ws: false, meaning: 'a request that changes state carried the session cookie from a page of another site (its `Origin` is not this server’s); nothing changed' },
  sign_in_required: { status: 403, ws: false, meaning: 'the game is rated: its seats are for players, and the request carried no player session (`POST /api/session` starts one)' },
  passkey_required: {
    status: 403,
    ws: false,
    meaning:
      'the game is rated and seats more than one person: its person seats are for players with a passkey, not guests (a guest may play rated games against bots; `POST /api/passkeys/registration/options` adds a passkey)',
  },
  not_signed_in: { status: 401, ws: false, meaning: 'this needs a player session (the session cookie): `POST /api/session` starts one' },
  passkey_refused: {
    status: 401,
    ws: false,
    meaning:
      'the passkey answer did not verify (unknown or expired challenge, a credential this server does not know, a bad signature, a user handle missing or not the credential’s player), or registers a credential stored already (to this player or another): nothing changed; the same answer whatever the cause',
  },
  origin_not_allowed: { status: 403, ws: false, meaning: 'the WebSocket upgrade came from a browser origin outside the allow-list' },
  not_found: { status: 404, ws: false, meaning: 'no such route' },
  unknown_game: { status: 404, ws: true, meaning: 'no game with that id' },
  no_analysis: { status: 404, ws: false, meaning: 'nobody has asked for this game’s analysis yet (`POST` it first)' },
  unknown_device: { status: 404, ws: false, meaning: 'the signed-in player has no device with that id (removed already, or another player’s)' },
  unknown_player: { status: 404, ws: false, meaning: 'no player with that id (or none who has held a seat), or none of that name challenged at creation' },
  request_timeout: { status: 408, ws: false, meaning: 'the request was not received in time' },
  too_many_requests: {
    status: 429,
    ws: false,
    meaning:
      'this address created games, took seats, asked for analyses, started sessions, renamed a player, used passkeys or subscribed devices too often (`TESSERA_CREATES_PER_MINUTE` a minute for each); retry after `Retry-After` seconds',
  },
  analysis_queue_full: { status: 429, ws: false, meaning: 'as many game analyses wait as allowed (`TESSERA_MAX_ANALYSES`); retry after `Retry-After` seconds' },
  too_many_connections: { status: 429, ws: false, meaning: 'this address holds as many WebSocket connections as allowed (`TESSERA_WS_PER_IP`)' },
  too_many_games: {
    status: 429,
    ws: false,
    meaning: 'this address created as many games that are not finished as allowed (`TESSERA_GAMES_PER_IP`, waiting or being played): finish or leave one first',
  },
  no_seat: { status: 409, ws: false, meaning: 'the seat asked for is not open (or none is left)' },
  name_taken: {
    status: 409,
    ws: false,
    meaning:
      "the name looks the same as one already held (docs/PROTOCOL.md §9: case, width and confusable letters folded): another player's, another seat's in this game, or, for a seat name typed without signing in, any player's",
  },
  name_invalid: {
    status: 400,
    ws: false,
    meaning:
      "a typed name (a player's or a seat's) must have 1 to 24 characters, start with a letter or digit, hold only letters, digits, spaces and _ . ' -, hold no invisible character, and not read as a bot's, a seat's the server or client names, or a guest's default name (`Guest` and digits) (docs/PROTOCOL.md §9)",
  },
  not_finished: { status: 409, ws: false, meaning: 'the game is still being played (its record holds the bag order)' },
  too_large: { status: 413, ws: true, meaning: 'over the size limit: an HTTP body over 16 KiB, a WebSocket message over the message limit (`TESSERA_WS_MAX_MESSAGE`)' },
  unsupported_media_type: { status: 415, ws: false, meaning: 'the body is not `application/json`' },
  headers_too_large: { status: 431, ws: false, meaning: 'the request headers are over the server limit' },
  internal: { status: 500, ws: true, meaning: 'the server failed (no details are sent)' },
  overloaded: {
    status: 503,
    ws: false,
    meaning: 'no capacity for a new game now (the bot queue is near its bound, the game limit is reached, or the pool is warming up or shutting down); retry after `Retry-After` seconds',
  },
  storage_unavailable: {
    status: 503,
    ws: true,
    meaning:
      'the server could not store the change (its disk is full or failing, or its database cannot be reached or did not answer in time; `message` names which): nothing changed; retry after `Retry-After` seconds (HTTP) or in a few seconds (WebSocket). Only a fault of the store itself: a request the database refuses by a rule of its schema (a name taken, a credential stored already) gets the code of that rule',
  },
  game_elsewhere: {
    status: 503,
    ws: true,
    meaning:
      'another instance of a cluster owns this game and this one does not relay to it (no `TESSERA_REDIS_URL`, or Redis is out of reach), or its owner died and the takeover is under way: retry in a few seconds',
  },
  game_damaged: {
    status: 500,
    ws: true,
    meaning: 'this game’s stored data is damaged (it does not parse or replay): the server sets it aside and serves every other game; an operator can export or remove it (docs/OPERATIONS.md)',
  },
  shutting_down: { status: 503, ws: false, meaning: 'the server is shutting down: every request, the WebSocket upgrade included, gets this; retry after `Retry-After` seconds' },
  bad_json: { status: null, ws: true, meaning: 'the message is not JSON' },
  bad_frame: { status: null, ws: true, meaning: 'not one of the client frames, or it breaks the schema; `message` names the field' },
  rate_limited: { status: null, ws: true, meaning: 'over the message rate; the frame was dropped' },
  unsupported_version: { status: null, ws: true, meaning: '`hello.v` is not a version this server speaks' },
  not_joined: {
    status: null,
    ws: true,
    meaning: 'a `move`, `claim` or `chat` before a successful `hello` on this connection (`ping` needs none; after a refused `hello` the connection may send another)',
  },
  too_many_watchers: { status: null, ws: true, meaning: 'a `hello` without a token to a game that has as many watchers as allowed (`TESSERA_WATCHERS_PER_GAME`)' },
  already_joined: { status: null, ws: true, meaning: 'a second `hello` on one connection' },
  not_seated: { status: null, ws: true, meaning: 'a watcher tried to move, claim, ask for a hint or chat (watchers read the table talk but may not write)' },
  hints_off: { status: null, ws: true, meaning: 'a `hint` in a game created without hints (only one person against bots may have them)' },
  hint_busy: { status: null, ws: true, meaning: 'no bot worker was free for the hint in time (bot moves come first; `TESSERA_HINT_WAIT_MS`); nothing was counted: ask again in a few seconds' },
  chat_rate_limited: { status: null, ws: true, meaning: 'over the table-talk rate of a seat (5 messages at once, then one every 3 s); the message was not sent' },
  no_stand_in: { status: null, ws: true, meaning: 'a `claim` while no bot stands in for your seat (nothing to take back)' },
  not_started: { status: null, ws: true, meaning: 'the game still has open seats' },
  game_over: { status: null, ws: true, meaning: 'the game has ended' },
  not_your_turn: { status: null, ws: true, meaning: 'another seat must place the tile' },
  stale_turn: { status: null, ws: true, meaning: '`move.turn` is not the current `turn`' },
  illegal_move: { status: null, ws: true, meaning: 'the placement or follower is not legal; `message` says why' },
} as const satisfies Record<string, ErrorDef>;

export type ErrorCode = keyof typeof ERRORS;
export type HttpErrorCode = { [C in ErrorCode]: (typeof ERRORS)[C]['status'] extends number ? C : never }[ErrorCode];
export type WsErrorCode = { [C in ErrorCode]: (typeof ERRORS)[C]['ws'] extends true ? C : never }[ErrorCode];

export const WS_ERROR_CODES = (Object.keys(ERRORS) as ErrorCode[]).filter((c) => ERRORS[c].ws) as WsErrorCode[];

/** Whether an HTTP call can answer with `code` (WebSocket-only codes have no status). */
export function isHttpCode(code: ErrorCode): code is HttpErrorCode {
  return ERRORS[code].status !== null;
}

/**
 * A refusal or failure with its catalogue code, thrown by the domain and the routes alike. The
 * HTTP layer answers it with the code's status (server/http/errors.ts) and, when set, Retry-After;
 * the WebSocket layer sends the code in an error frame.
 */
export class CodedError extends Error {
  override name = 'CodedError';
  readonly code: ErrorCode;
  /** How long the client should wait before asking again; sent as Retry-After over HTTP. */
  readonly retryAfterSeconds: number | undefined;
  constructor(code: ErrorCode, message: string, options?: ErrorOptions & { retryAfterSeconds?: number }) {
    super(message, options);
    this.code = code;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
  /** What the client is told: the message, unless a subclass words it for a player. */
  get clientMessage(): string {
    return this.message;
  }
}

/** The one HTTP error body: `{statusCode, code, message}`. */
export function errorBody(code: HttpErrorCode, message: string): { statusCode: number; code: HttpErrorCode; message: string } {
  return { statusCode: ERRORS[code].status, code, message };
}
