// How the server answers a filling bot queue. Both thresholds are fractions of the queue's bound
// (`BotPool.load`), and the cheaper answer comes first: weaker bots before refused players.

/** From here searches drop to the cheap level even when they would end in time: moves arrive
 * faster than the pool answers them, and cheaper searches drain the queue before it overflows
 * into main-thread moves. */
export const CROWDED_AT = 0.5;

/** From here new games are refused and /readyz says 503: even cheap searches no longer keep up,
 * and every new game would add bot moves to a queue that is nearly full. */
export const SHED_AT = 0.9;
