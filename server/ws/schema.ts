// A small JSON Schema checker for the subset the protocol's client frames use (type, enum,
// const, required, properties, additionalProperties: false, minimum/maximum, min/maxLength).
// The same schema objects are published in docs/PROTOCOL.md.

export interface Schema {
  type?: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'null' | ('string' | 'integer' | 'null')[];
  enum?: readonly unknown[];
  const?: unknown;
  required?: readonly string[];
  properties?: Record<string, Schema>;
  additionalProperties?: false;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  description?: string;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The first problem with `value`, as "path: what is wrong", or null when it conforms. */
export function check(schema: Schema, value: unknown, path = ''): string | null {
  const where = path || 'frame';
  if (schema.const !== undefined && value !== schema.const) return `${where} must be ${JSON.stringify(schema.const)}`;
  if (schema.enum && !schema.enum.includes(value)) return `${where} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  if (schema.type) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    const t = typeOf(value);
    if (!types.some((want) => want === t || (want === 'number' && t === 'integer'))) return `${where} must be ${types.join(' or ')}, got ${t}`;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return `${where} must be ≥ ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${where} must be ≤ ${schema.maximum}`;
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) return `${where} must have at least ${schema.minLength} characters`;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return `${where} must have at most ${schema.maxLength} characters`;
  }
  if (typeOf(value) === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in obj)) return `${path ? `${path}.` : ''}${key} is required`;
    for (const [key, v] of Object.entries(obj)) {
      const sub = schema.properties?.[key];
      if (!sub) {
        if (schema.additionalProperties === false) return `${path ? `${path}.` : ''}${key} is not allowed`;
        continue;
      }
      const problem = check(sub, v, path ? `${path}.${key}` : key);
      if (problem) return problem;
    }
  }
  return null;
}
