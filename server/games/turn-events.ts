// What a turn-based game tells the outside world about turns: the one hook notifications hang on
// (Web Push and the like are implemented elsewhere). The games call it; by default nobody hears.

/** A signed-in player's turn in a turn-based game. */
export interface TurnEvent {
  playerId: string;
  gameId: string;
  /** Record entries so far: the turn the player is to play (a move frame quotes it). */
  turn: number;
  /** When the move's time runs out (ms since the epoch), or null in a game without deadlines. */
  deadline: number | null;
}

/** Told when a turn-based game's turn passes to a signed-in person, and once per turn before its
 * deadline. Called after the state is stored; it must not throw or block (a listener's fault is
 * logged by the caller and changes nothing in the game). */
export interface TurnNotifier {
  yourTurn(event: TurnEvent): void;
  reminder(event: TurnEvent): void;
}

/** Nobody listening. */
export const QUIET_TURNS: TurnNotifier = {
  yourTurn() {},
  reminder() {},
};
