// WebSocket close codes the server uses: the browser client picks its retry by them
// (client/src/retry.ts), and both a served socket and a relayed one close with them.

export const CLOSE = {
  shutdown: 1001,
  /** This instance no longer plays the game: reconnect (the load balancer finds where it is). */
  moved: 1012,
  policy: 1008,
  tooBig: 1009,
  slowConsumer: 1013,
  /** The link to the instance playing the game broke: reconnect with backoff. */
  relayLost: 4000,
} as const;
