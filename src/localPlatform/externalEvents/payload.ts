import { EXTERNAL_EVENT_CONTENT_TYPES, type EventIdLocation } from '../../contract/externalEvents';
import { LOCAL_LIMITS } from '../ownLimits';
import type { RawBody, RequestContext } from '../http';
import { jsonTooDeep, MAX_NESTING, TOO_DEEP } from '../limits';
import { parseXml, XmlError, xmlToJson } from './xml';

/** Why a webhook body or its event id was refused; becomes a 400 `{error_message}`. */
export class PayloadError extends Error {}

/** A result payload read from its media type. `root` is the XML root element's name. */
export interface ParsedPayload {
  kind: 'json' | 'form' | 'xml' | 'text' | 'empty';
  value: unknown;
  /** Form bodies: each field by its literal name, so `a.b=1` is found by the path `a.b`. */
  flat?: ReadonlyMap<string, string>;
  root?: string;
}

/** Reads the body by its Content-Type (EXT-3); unsupported types and malformed bodies throw PayloadError. */
export function parsePayload(raw: RawBody): ParsedPayload {
  const supported = (EXTERNAL_EVENT_CONTENT_TYPES as readonly string[]).includes(raw.contentType);
  // An id in the headers or query string needs no body at all.
  if (raw.text.trim() === '' && (supported || raw.contentType === '')) return { kind: 'empty', value: null };
  switch (raw.contentType) {
    case 'application/json':
      if (jsonTooDeep(raw.text)) throw new PayloadError(`The body ${TOO_DEEP}`);
      try {
        return { kind: 'json', value: JSON.parse(raw.text) as unknown };
      } catch {
        throw new PayloadError('The body is not valid JSON');
      }
    case 'application/x-www-form-urlencoded':
      return parseForm(raw.text);
    case 'application/xml':
    case 'text/xml':
      try {
        const root = parseXml(raw.text);
        return { kind: 'xml', value: plain({ [root.name]: xmlToJson(root) }), root: root.name };
      } catch (err) {
        if (err instanceof XmlError) throw new PayloadError(`The body is not well-formed XML: ${err.message}`);
        throw err;
      }
    case 'text/plain':
      return parseText(raw.text);
    case '':
      throw new PayloadError(
        'A body needs a Content-Type: application/json, application/x-www-form-urlencoded, application/xml or text/plain',
      );
    default:
      throw new PayloadError(
        `Unsupported Content-Type ${raw.contentType}: send application/json, application/x-www-form-urlencoded, application/xml or text/plain`,
      );
  }
}

/** Finds the event id at its location and path (EXT-2); throws PayloadError naming what is missing. */
export function findEventId(
  req: RequestContext,
  payload: ParsedPayload,
  location: EventIdLocation,
  path: string,
): string {
  let found: unknown;
  if (location === 'headers') found = req.header(path);
  else if (location === 'querystring') found = req.query.get(path) ?? undefined;
  else found = findInPayload(payload, path);
  if (found === undefined || found === null) throw new PayloadError(`No event id found in ${location} at ${path}`);
  if (typeof found === 'number' && Number.isFinite(found)) found = String(found);
  if (typeof found !== 'string') throw new PayloadError(`The value in ${location} at ${path} is not a string event id`);
  const id = found.trim();
  if (!id) throw new PayloadError(`Invalid event id in ${location} at ${path}`);
  if (id.length > LOCAL_LIMITS.eventId)
    throw new PayloadError(
      `Invalid event id in ${location} at ${path}: the local platform takes at most ${LOCAL_LIMITS.eventId} characters (a limit of its own)`,
    );
  return id;
}

function findInPayload(payload: ParsedPayload, path: string): unknown {
  if (payload.flat?.has(path)) return payload.flat.get(path);
  const segments = path.split('.');
  const direct = walk(payload.value, segments);
  if (direct !== undefined || payload.root === undefined) return direct;
  // XML paths may start below the root element: `event_id` for <result><event_id>.
  return walk((payload.value as Record<string, unknown>)[payload.root], segments);
}

/** Own properties only, so a path such as `constructor` finds nothing. */
function walk(value: unknown, segments: readonly string[]): unknown {
  let cur = value;
  for (const seg of segments) {
    if (Array.isArray(cur) && /^\d+$/.test(seg)) cur = cur[Number(seg)];
    else if (typeof cur === 'object' && cur !== null && !Array.isArray(cur) && Object.hasOwn(cur, seg))
      cur = (cur as Record<string, unknown>)[seg];
    else return undefined;
  }
  return cur;
}

/** Form fields: bracket names nest (`customer[id]`, `items[]`), repeated names make lists. */
function parseForm(text: string): ParsedPayload {
  const params = new URLSearchParams(text);
  const flat = new Map<string, string>();
  const root: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of params) {
    if (!flat.has(name)) flat.set(name, value);
    const [, head, brackets = ''] = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name) ?? [];
    const keys =
      head === undefined ? [name] : [head, ...[...brackets.matchAll(/\[([^[\]]*)\]/g)].map(([, key = '']) => key)];
    if (keys.length > MAX_NESTING) throw new PayloadError(`The form field ${name.slice(0, 40)}… ${TOO_DEEP}`);
    assign(root, keys, value);
  }
  return { kind: 'form', value: plain(root), flat };
}

function assign(target: Record<string, unknown>, keys: string[], value: string): void {
  let cur = target;
  for (const [k, key] of keys.entries()) {
    if (key === '') return; // a stray `[]` in the middle of a name
    const existing = cur[key];
    if (k === keys.length - 1 || keys[k + 1] === '') {
      // The field's value: a repeated name or a trailing `[]` makes a list.
      const listed = keys[k + 1] === '';
      if (Array.isArray(existing)) existing.push(value);
      else if (existing === undefined || typeof existing === 'object') cur[key] = listed ? [value] : value;
      else cur[key] = [existing, value];
      return;
    }
    if (typeof existing !== 'object' || existing === null || Array.isArray(existing))
      cur[key] = Object.create(null) as Record<string, unknown>;
    cur = cur[key] as Record<string, unknown>;
  }
}

/** text/plain: `key=value` lines make an object; any other text is kept as the string it is. */
function parseText(text: string): ParsedPayload {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const pairs = lines.flatMap((l) => {
    const [, key, value] = /^\s*([^=\s][^=]*?)\s*=\s*(.*?)\s*$/.exec(l) ?? [];
    return key === undefined || value === undefined ? [] : [{ key, value }];
  });
  if (!lines.length || pairs.length < lines.length) return { kind: 'text', value: text };
  const obj: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const { key, value } of pairs) if (!Object.hasOwn(obj, key)) obj[key] = value;
  return { kind: 'text', value: plain(obj) };
}

/** Plain JSON again (ordinary prototypes), as the state must be. */
function plain(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v)) as unknown;
}
