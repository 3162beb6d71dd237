/** The WebSocket protocol version (docs/PROTOCOL.md); a leaf module, so the client's bundle
 * takes the number without the schemas. */
export const PROTOCOL_VERSION = 2;
/** Every version a `hello` may ask for: version 1 clients keep getting whole views. */
export const SUPPORTED_VERSIONS: readonly number[] = [1, 2];
/** From this version on, state changes come as `delta` frames after one whole `state`. */
export const DELTA_VERSION = 2;
