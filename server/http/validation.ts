// Request validation: a body is taken as the schema says, never coerced ("true" is not a
// boolean, "60" not an integer) and never trimmed of unknown fields, as on the WebSocket.
// Query strings and path parameters arrive as text, so there fastify's default coercion stays.

import { AjvCompiler, type ValidatorFactory } from '@fastify/ajv-compiler';

const fromPool = AjvCompiler();

/** fastify's own ajv compiler, with a strict instance for bodies (schemaController.compilersFactory). */
export const buildValidator: ValidatorFactory = (externalSchemas, options = {}) => {
  const lenient = fromPool(externalSchemas, options);
  const strictOptions = { ...options, customOptions: { ...options.customOptions, coerceTypes: false, removeAdditional: false } } as typeof options;
  const strict = fromPool(externalSchemas, strictOptions);
  return (route) => (route.httpPart === 'body' ? strict : lenient)(route);
};
