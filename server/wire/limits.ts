// Numbers the browser client shares with the server; a leaf module, so the client's bundle takes
// them without the schemas.

/** Player ids one `GET /api/ratings` answers (docs/PROTOCOL.md §11). */
export const RATINGS_PER_CALL = 6;

/** A player's name, in characters (docs/PROTOCOL.md §9). */
export const MAX_NAME_LENGTH = 24;

/** The names the client shows for bots' seats, by seat ("Bertha (greedy bot)"): no person may take one. */
export const BOT_DISPLAY_NAMES: readonly string[] = ['Odo', 'Bertha', 'Hugo', 'Matilda', 'Roland', 'Adela'];
