import * as vscode from 'vscode';
import type { ExternalEventInput } from '../../client/externalEvents';
import type { EventIdLocation } from '../../contract/externalEvents';
import type { Connection } from '../connection/connection';
import { requireClients, runCommand, withProgress } from '../common/commandSupport';
import { prompts } from '../common/prompts';
import { Command } from '../ids';

type ContentType = ExternalEventInput['contentType'];

/** What the platform accepted (also to automation and tests). */
export interface SentEvent {
  eventId?: string;
  status: string;
  receivedAt?: string;
}

const LOCATIONS: ReadonlyArray<{ label: string; location: EventIdLocation; detail: string }> = [
  {
    label: 'payload',
    location: 'payload',
    detail: 'The event id is a field of the body, found by its dotted path (such as booking.id).',
  },
  { label: 'headers', location: 'headers', detail: 'The event id is sent in a request header of that name.' },
  { label: 'querystring', location: 'querystring', detail: 'The event id is sent as a query parameter of that name.' },
];

const CONTENT_TYPES: ReadonlyArray<{ label: string; contentType: ContentType }> = [
  { label: 'JSON', contentType: 'application/json' },
  { label: 'Form', contentType: 'application/x-www-form-urlencoded' },
  { label: 'XML', contentType: 'application/xml' },
  { label: 'Text', contentType: 'text/plain' },
];

/**
 * The event id a request carries, read where the person said it lives; undefined for XML and text
 * bodies, whose id the platform reads itself.
 */
function sentEventId(input: ExternalEventInput): string | undefined {
  const path = input.eventIdPath;
  if (input.eventIdLocation === 'headers') return input.headers?.[path];
  if (input.eventIdLocation === 'querystring') return input.query?.[path];
  if (input.contentType === 'application/x-www-form-urlencoded')
    return new URLSearchParams(input.body).get(path) ?? undefined;
  if (input.contentType !== 'application/json') return undefined;
  try {
    return atPath(JSON.parse(input.body), path);
  } catch {
    return undefined;
  }
}

/** The value at a dotted path of a JSON value, when it is a non-empty string or a number (what an event id can be). */
function atPath(value: unknown, path: string): string | undefined {
  let at = value;
  for (const segment of path.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[segment];
  }
  return (typeof at === 'string' && at !== '') || typeof at === 'number' ? String(at) : undefined;
}

/** Where the event is sent from: the palette, or a chat of the playground whose conversation waits on it. */
export interface ExternalEventArgs {
  conversationId?: string;
}

function argsOf(arg: unknown): ExternalEventArgs {
  const id = (arg as ExternalEventArgs | undefined)?.conversationId;
  return typeof arg === 'object' && arg !== null && typeof id === 'string' && id ? { conversationId: id } : {};
}

/**
 * A result to start from when the event goes to a conversation of the playground: a successful booking or
 * payment naming the conversation, with an empty event id at its path for the person to fill in.
 */
function resultTemplate(
  contentType: ContentType,
  location: EventIdLocation,
  path: string,
  conversationId: string,
): string {
  if (contentType === 'application/json') {
    const result: Record<string, unknown> = { conversation_id: conversationId, status: 'succeeded' };
    if (location === 'payload') {
      const parts = path.split('.');
      let at = result;
      for (const part of parts.slice(0, -1)) at = (at[part] = {}) as Record<string, unknown>;
      at[parts.at(-1)!] = '';
    }
    return JSON.stringify(result, null, 1).replace(/\n\s*/g, ' ');
  }
  if (contentType === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams({ conversation_id: conversationId, status: 'succeeded' });
    if (location === 'payload') form.set(path, '');
    return form.toString();
  }
  return '';
}

/**
 * Why a body cannot be sent as typed: JSON that does not parse, or (when the id lives in the payload) a
 * JSON or form body without a value at the path. XML and text are sent as written; the platform reads them.
 */
function bodyProblem(
  body: string,
  contentType: ContentType,
  location: EventIdLocation,
  path: string,
): string | undefined {
  if (contentType === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (err) {
      return vscode.l10n.t('This is not valid JSON: {0}', (err as Error).message);
    }
    if (location === 'payload' && atPath(parsed, path) === undefined)
      return vscode.l10n.t('The body has no event id at {0}.', path);
  }
  if (
    contentType === 'application/x-www-form-urlencoded' &&
    location === 'payload' &&
    !new URLSearchParams(body).get(path)
  ) {
    return vscode.l10n.t('The form has no field {0} with the event id.', path);
  }
  return undefined;
}

/** What Send External Event remembers per connection profile (whose project serves one agent): the last values sent. */
export interface RememberedEvent {
  body: string;
  contentType: string;
  location: EventIdLocation;
  path: string;
}

const REMEMBERED_KEY = 'agentWorkbench.externalEvent.last';

/** The content type a body reads as: JSON when it parses, XML when it opens with a tag, a form of key=value, else text. */
function contentTypeOf(body: string): ContentType {
  const text = body.trim();
  try {
    JSON.parse(text);
    return 'application/json';
  } catch {
    // not JSON
  }
  if (text.startsWith('<')) return 'application/xml';
  if (/^[^\s=&]+=[^\s&]*(&[^\s=&]+=[^\s&]*)*$/.test(text)) return 'application/x-www-form-urlencoded';
  return 'text/plain';
}

/** The dotted path of the first field of a JSON body whose name says it is an event id, such as booking.event_id. */
function idPathOf(body: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const walk = (v: unknown, at: string[]): string | undefined => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
    for (const [k, child] of Object.entries(v)) {
      if (/^(event_?id|eventId|id)$/i.test(k)) return [...at, k].join('.');
      const deeper = walk(child, [...at, k]);
      if (deeper) return deeper;
    }
    return undefined;
  };
  return walk(value, []);
}

const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;.*)?$/i;

/**
 * Asks the body first (the result, what the person came to send), then its content type, where the event id lives
 * and its path, each with a default read from the body or remembered from the last event sent with this profile.
 */
async function askEvent(
  conversationId: string | undefined,
  last: RememberedEvent | undefined,
): Promise<ExternalEventInput | undefined> {
  const title = conversationId
    ? vscode.l10n.t('Send External Event into Conversation {0}', conversationId)
    : vscode.l10n.t('Send External Event');
  const body = await prompts.input({
    title,
    prompt: vscode.l10n.t('The result to deliver: JSON, a form (key=value&...), XML or text'),
    value: conversationId
      ? resultTemplate(
          'application/json',
          'payload',
          last?.location === 'payload' ? last.path : 'event_id',
          conversationId,
        )
      : (last?.body ?? '{"event_id": ""}'),
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim().startsWith('{') ? bodyProblem(v, 'application/json', 'headers', '') : undefined),
  });
  if (body === undefined) return undefined;

  const detected = contentTypeOf(body);
  const preferred = last && contentTypeOf(body) === contentTypeOf(last.body) ? last.contentType : detected;
  const other = vscode.l10n.t('Another content type…');
  const typeItems = [
    ...CONTENT_TYPES.map((c) => ({
      label: c.label,
      description: c.contentType,
      contentType: c.contentType as string,
      ...(c.contentType === preferred ? { detail: vscode.l10n.t('read from the body') } : {}),
    })),
    ...(CONTENT_TYPES.some((c) => c.contentType === preferred)
      ? []
      : [{ label: preferred, description: vscode.l10n.t('last sent'), contentType: preferred }]),
    // Always shown, so typing a media type never filters the list to nothing.
    { label: other, description: '', contentType: '', alwaysShow: true },
  ].sort((a, b) => Number(b.contentType === preferred) - Number(a.contentType === preferred));
  const type = await prompts.pick(typeItems, {
    title,
    placeHolder: vscode.l10n.t('Content type of the body (type to filter by name or media type)'),
    matchOnDescription: true,
  });
  if (!type) return undefined;
  let contentType = type.contentType;
  if (!contentType) {
    const typed = await prompts.input({
      title,
      prompt: vscode.l10n.t('The media type of the body, such as text/xml or application/json; charset=utf-8'),
      value: preferred,
      ignoreFocusOut: true,
      validateInput: (v) =>
        MEDIA_TYPE.test(v.trim()) ? undefined : vscode.l10n.t('Write a media type as type/subtype.'),
    });
    if (typed === undefined) return undefined;
    contentType = typed.trim();
  }

  const readable = contentType.startsWith('application/json') || contentType.startsWith('application/x-www-form');
  const defaultLocation: EventIdLocation =
    last?.location ?? (readable || contentType.includes('xml') ? 'payload' : 'headers');
  const where = await prompts.pick(
    LOCATIONS.map((l) => ({ ...l, detail: vscode.l10n.t(l.detail) })).sort(
      (a, b) => Number(b.location === defaultLocation) - Number(a.location === defaultLocation),
    ),
    { title, placeHolder: vscode.l10n.t('Where the event id lives') },
  );
  if (!where) return undefined;
  const kind = contentType.startsWith('application/json')
    ? 'application/json'
    : contentType.startsWith('application/x-www-form-urlencoded')
      ? 'application/x-www-form-urlencoded'
      : 'text/plain';
  const guessed = where.location === 'payload' ? idPathOf(body) : undefined;
  const path = await prompts.input({
    title,
    prompt:
      where.location === 'payload'
        ? vscode.l10n.t('Dotted path of the event id in the body, such as booking.id')
        : vscode.l10n.t('Name of the {0} entry that holds the event id', where.label),
    value: (last?.location === where.location ? last.path : undefined) ?? guessed ?? '',
    ignoreFocusOut: true,
    validateInput: (v) => {
      const text = v.trim();
      // "name or dotted path" is all the spec shows: anything else is the platform's to judge.
      if (!text) return vscode.l10n.t('Enter where the event id is.');
      return bodyProblem(body, kind, where.location, text);
    },
  });
  if (path === undefined) return undefined;
  const eventIdPath = path.trim();
  let eventId: string | undefined;
  if (where.location !== 'payload') {
    eventId = await prompts.input({
      title,
      prompt: vscode.l10n.t(
        'The event id the conversation waits on (the agent made it when it started the workflow; the platform does not list waiting ids)',
      ),
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Enter the event id.')),
    });
    if (eventId === undefined) return undefined;
  }
  const id = eventId?.trim();
  return {
    eventIdLocation: where.location,
    eventIdPath,
    body,
    contentType,
    ...(id !== undefined && where.location === 'headers' ? { headers: { [eventIdPath]: id } } : {}),
    ...(id !== undefined && where.location === 'querystring' ? { query: { [eventIdPath]: id } } : {}),
  };
}

/**
 * Post a third-party result (a payment, a booking) into a conversation that waits on it. The chat
 * playground offers the same command for its conversation, which the result then names.
 */
export function registerExternalEventCommand(connection: Connection, memory: vscode.Memento): vscode.Disposable {
  async function sendExternalEvent(args: ExternalEventArgs): Promise<SentEvent | undefined> {
    requireClients(connection);
    const profileId = connection.profiles.active?.id ?? '';
    const remembered = memory.get<Record<string, RememberedEvent>>(REMEMBERED_KEY, {});
    const input = await askEvent(args.conversationId, remembered[profileId]);
    if (!input) return undefined;
    const last: RememberedEvent = {
      body: input.body,
      contentType: input.contentType,
      location: input.eventIdLocation,
      path: input.eventIdPath,
    };
    await memory.update(REMEMBERED_KEY, {
      ...memory.get<Record<string, RememberedEvent>>(REMEMBERED_KEY, {}),
      [profileId]: last,
    });
    const send = async (): Promise<SentEvent> => {
      const client = requireClients(connection).externalEvents;
      const reply = await withProgress(vscode.l10n.t('Sending the external event…'), (signal) =>
        client.send(input, signal),
      );
      // The spec shows the 201 alone: the id named is the platform's where it echoes one, else the one sent.
      const eventId = reply.event_id ?? sentEventId(input);
      const sent: SentEvent = {
        status: reply.status,
        ...(eventId ? { eventId } : {}),
        ...(reply.received_at ? { receivedAt: reply.received_at } : {}),
      };
      void prompts.info(
        sent.eventId
          ? vscode.l10n.t(
              'The platform accepted event {0} (201 Created, {1}): the conversation waiting on it gets the result.',
              sent.eventId,
              sent.status,
            )
          : vscode.l10n.t('The platform accepted the event (201 Created, {0}).', sent.status),
      );
      return sent;
    };
    // An event is delivered once: a repeat is the person's choice.
    const attempt = (): Promise<SentEvent | undefined> => runCommand(send, { retry: attempt });
    return attempt();
  }

  return vscode.commands.registerCommand(Command.sendExternalEvent, (arg?: unknown) =>
    runCommand(() => sendExternalEvent(argsOf(arg))),
  );
}
