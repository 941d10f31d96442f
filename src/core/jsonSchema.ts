/**
 * A checker for the part of JSON Schema that real-time config pages use: type, properties,
 * additionalProperties, required, enum, const, minimum/maximum, exclusiveMinimum/Maximum,
 * minLength/maxLength, pattern, items, minItems/maxItems. Other keywords are ignored, so an
 * unknown keyword never rejects a value. Small on purpose: no dependency for a dozen rules.
 */

export interface SchemaViolation {
  /** Where the bad value is: `maxWaitMinutes`, `hours.open`, `list[2]`; '' for the value itself. */
  path: string;
  message: string;
}

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return true;
  }
}

/** Deep equality of JSON values, for enum and const. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

const join = (path: string, key: string | number): string =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;
const show = (v: unknown): string => JSON.stringify(v);

/** Every way `value` breaks `schema`; empty when it fits. `true`/`{}` accept anything, `false` nothing. */
export function checkJsonSchema(schema: unknown, value: unknown, path = ''): SchemaViolation[] {
  if (schema === true || schema === undefined) return [];
  if (schema === false) return [{ path, message: 'is not allowed' }];
  if (!isObject(schema)) return [];
  const out: SchemaViolation[] = [];
  const s: Schema = schema;

  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type.map(String) : [String(s.type)];
    if (!types.some((t) => typeMatches(t, value))) {
      return [
        {
          path,
          message: `must be ${types.length === 1 ? `of type ${types[0]}` : `one of the types ${types.join(', ')}`}`,
        },
      ];
    }
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => jsonEqual(e, value)))
    out.push({ path, message: `must be one of ${s.enum.map(show).join(', ')}` });
  if ('const' in s && !jsonEqual(s.const, value)) out.push({ path, message: `must be ${show(s.const)}` });

  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum)
      out.push({ path, message: `must be at least ${s.minimum}` });
    if (typeof s.maximum === 'number' && value > s.maximum) out.push({ path, message: `must be at most ${s.maximum}` });
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum)
      out.push({ path, message: `must be more than ${s.exclusiveMinimum}` });
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum)
      out.push({ path, message: `must be less than ${s.exclusiveMaximum}` });
  }

  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof s.minLength === 'number' && length < s.minLength)
      out.push({ path, message: `must be at least ${s.minLength} characters` });
    if (typeof s.maxLength === 'number' && length > s.maxLength)
      out.push({ path, message: `must be at most ${s.maxLength} characters` });
    const pattern = typeof s.pattern === 'string' ? safeRegExp(s.pattern) : undefined;
    if (pattern && !pattern.test(value)) out.push({ path, message: `must match ${String(s.pattern)}` });
  }

  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems)
      out.push({ path, message: `must hold at least ${s.minItems} items` });
    if (typeof s.maxItems === 'number' && value.length > s.maxItems)
      out.push({ path, message: `must hold at most ${s.maxItems} items` });
    if (s.items !== undefined) value.forEach((item, i) => out.push(...checkJsonSchema(s.items, item, join(path, i))));
  }

  if (isObject(value)) {
    const properties = isObject(s.properties) ? s.properties : {};
    if (Array.isArray(s.required)) {
      for (const name of s.required.map(String))
        if (!Object.hasOwn(value, name)) out.push({ path: join(path, name), message: 'is required' });
    }
    for (const [name, item] of Object.entries(value)) {
      if (Object.hasOwn(properties, name)) out.push(...checkJsonSchema(properties[name], item, join(path, name)));
      else if (s.additionalProperties === false)
        out.push({ path: join(path, name), message: 'is not a known property' });
      else if (isObject(s.additionalProperties))
        out.push(...checkJsonSchema(s.additionalProperties, item, join(path, name)));
    }
  }
  return out;
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}
