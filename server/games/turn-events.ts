// What the games tell the outside world about turns (and challenges): the one hook notifications
// hang on (Web Push and the like are implemented elsewhere). The games call it; by default nobody
// hears.

/** A signed-in player's turn in a turn-based game. */
export interface TurnEvent {
  playerId: string;
  gameId: string;
  /** Record entries so far: the turn the player is to play (a move frame quotes it). */
  turn: number;
  /** When the move's time runs out (ms since the epoch), or null in a game without deadlines. */
  deadline: number | null;
}

/** A signed-in player challenged by name into a seat of a new game (any pace). */
export interface ChallengeEvent {
  playerId: string;
  gameId: string;
  /** The name of the player who made the game; null when it was made without a session. */
  by: string | null;
  /** When the seat kept for them stops waiting (ms since the epoch: the game's open seats expire). */
  until: number;
}

/** Told when a turn-based game's turn passes to a signed-in person, and once per turn before its
 * deadline. Called after the state is stored; it must not throw or block (a listener's fault is
 * logged by the caller and changes nothing in the game). */
export interface TurnNotifier {
  yourTurn(event: TurnEvent): void;
  reminder(event: TurnEvent): void;
  /** Once per challenged player, after the new game is stored. */
  challenged(event: ChallengeEvent): void;
}

/** Nobody listening. */
export const QUIET_TURNS: TurnNotifier = {
  yourTurn() {},
  reminder() {},
  challenged() {},
};
