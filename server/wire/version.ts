/** The WebSocket protocol version (docs/PROTOCOL.md); a leaf module, so the client's bundle
 * takes the number without the schemas. */
export const PROTOCOL_VERSION = 1;
