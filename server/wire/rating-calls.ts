/** Player ids one `GET /api/ratings` answers (docs/PROTOCOL.md §11); a leaf module, so the
 * client's bundle takes the number without the schemas. */
export const RATINGS_PER_CALL = 6;
