import { FAULT_KINDS, type FaultKind } from './faults';

/**
 * The places of the editor under each fault (docs/reliability.md, "The editor under each fault"): every tree, panel,
 * command, status bar item, test run and assistant tool the editor's fault suite (test/integration/faults.test.ts)
 * injects each fault of FAULT_KINDS into, what each must show, and the words of the documentation's table. No
 * 'vscode' here: the unit test of the documentation (test/unit/reliabilityDoc.test.ts) reads the same table.
 */

/** How a place tells a failure. */
export type Shows =
  'error item' | 'welcome' | 'status bar' | 'panel' | 'chat line' | 'notification' | 'test result' | 'tool answer';

export interface FaultPlace {
  id: string;
  /** Where it is, in the table. */
  label: string;
  shows: Shows;
  /** A read shows what it reads; a write is never sent again by itself. */
  kind: 'read' | 'write';
  /** The request the fault is armed on. */
  request: string;
  /** The request is one the spec does not show: the spec-only platform has none, so the place is not run there. */
  assumed?: boolean;
  /** A write the client sends again where the platform answered that it made nothing (429, 5xx): a messaging session. */
  repeatsAfterRefusal?: boolean;
  /** What the person typed that the place must keep after a failed write. */
  keeps?: string;
  /**
   * The spec describes the write's answer only in words ("new branch"): what it leaves out is read from what was
   * sent, so an answer of another shape still reads as done.
   */
  readFromRequest?: boolean;
}

export const FAULT_PLACES: FaultPlace[] = [
  {
    id: 'agents',
    label: 'Agents view: the agents',
    shows: 'welcome',
    kind: 'read',
    request: 'GET /v1/agents',
    assumed: true,
  },
  {
    id: 'branches',
    label: 'Agents view: the branches of an agent',
    shows: 'error item',
    kind: 'read',
    request: 'GET /v1/agents/{agentId}/branches',
    assumed: true,
  },
  {
    id: 'topics',
    label: 'Agents view: the knowledge topics of a branch',
    shows: 'error item',
    kind: 'read',
    request: 'GET …/branches/{branchId}/knowledge-base/topics',
    assumed: true,
  },
  {
    id: 'deployments',
    label: 'Agents view: deployments',
    shows: 'error item',
    kind: 'read',
    request: 'GET /v1/agents/{agentId}/deployments',
    assumed: true,
  },
  {
    id: 'numbers',
    label: 'Agents view: phone numbers',
    shows: 'error item',
    kind: 'read',
    request: 'GET /v1/agents/{agentId}/telephony/phone-numbers',
  },
  {
    id: 'configs',
    label: 'Agents view: real-time configs',
    shows: 'error item',
    kind: 'read',
    request: 'GET /v1/agents/{agentId}/real-time-configs',
    assumed: true,
  },
  {
    id: 'rules',
    label: 'Alerts view: alert rules',
    shows: 'welcome',
    kind: 'read',
    request: 'GET /v1/alert-rules',
    assumed: true,
  },
  {
    id: 'currentAlerts',
    label: 'Alerts view: current alerts',
    shows: 'error item',
    kind: 'read',
    request: 'GET /v1/alerts',
  },
  {
    id: 'endpoints',
    label: 'Alerts view: webhook endpoints',
    shows: 'error item',
    kind: 'read',
    request: 'GET /v1/webhook-endpoints',
    assumed: true,
  },
  {
    id: 'alertBadge',
    label: 'Status bar: the alerts badge',
    shows: 'status bar',
    kind: 'read',
    request: 'GET /v1/alerts',
  },
  {
    id: 'transcripts',
    label: 'Conversations panel: the list',
    shows: 'panel',
    kind: 'read',
    request: 'GET /v3/{account}/{project}/conversations',
  },
  {
    id: 'chart',
    label: 'Concurrency chart',
    shows: 'panel',
    kind: 'read',
    request: 'GET /v1/{account}/{project}/conversations/concurrency',
  },
  {
    id: 'chatSession',
    label: 'Chat panel (Messaging API): a new session',
    shows: 'chat line',
    kind: 'write',
    request: 'POST /api/v1/sessions',
    repeatsAfterRefusal: true,
  },
  {
    id: 'chatTurn',
    label: 'Chat panel (Chat API): a message sent',
    shows: 'chat line',
    kind: 'write',
    request: 'POST …/chat/respond',
    keeps: 'the message, with Send again',
  },
  {
    id: 'publish',
    label: 'Command: Publish to Sandbox',
    shows: 'notification',
    kind: 'write',
    request: 'POST /v1/agents/{agentId}/deployments/publish',
  },
  {
    id: 'createRule',
    label: 'Command: Create Alert Rule (a quick input flow)',
    shows: 'notification',
    kind: 'write',
    request: 'POST /v1/alert-rules',
    keeps: 'the rule typed: the flow opens with it again',
  },
  {
    id: 'testRun',
    label: 'Testing view: a run of a conversation test',
    shows: 'test result',
    kind: 'write',
    request: 'POST …/chat/create',
  },
  {
    id: 'toolRead',
    label: 'Assistant tool: concurrency (a read)',
    shows: 'tool answer',
    kind: 'read',
    request: 'GET /v1/{account}/{project}/conversations/concurrency',
  },
  {
    id: 'toolWrite',
    label: 'Assistant tool: create a branch (a change)',
    shows: 'tool answer',
    kind: 'write',
    request: 'POST /v1/agents/{agentId}/branches',
    readFromRequest: true,
  },
];

/**
 * What the person is told, in four words: `shown` (the content, or the write done), `failed` (it failed: what, and
 * what to do), `maybe` (a write that may have been done: check before trying again), `accepted` (done, its answer
 * could not be read: refresh).
 */
export type PlaceOutcome = 'shown' | 'failed' | 'maybe' | 'accepted';

/** What a place must show under a fault. */
export function placeExpected(place: FaultPlace, fault: FaultKind): PlaceOutcome {
  if (fault === 'slow') return 'shown';
  if (place.kind === 'read') return fault === 'retryAfterShort' ? 'shown' : 'failed';
  switch (fault) {
    case 'retryAfterShort':
      return place.repeatsAfterRefusal ? 'shown' : 'failed';
    case 'retryAfterLong':
    case 'rateLimited':
    case 'status500':
      return 'failed';
    case 'wrongShape':
      return place.readFromRequest ? 'shown' : 'accepted';
    default:
      return 'maybe';
  }
}

/** Whether what the person typed is kept after the fault (for the places that keep something). */
export function keptExpected(place: FaultPlace, fault: FaultKind): boolean | undefined {
  if (!place.keeps) return undefined;
  const outcome = placeExpected(place, fault);
  return outcome === 'failed' || outcome === 'maybe';
}

/** The cell of the documentation's table. */
export function placeResult(place: FaultPlace, fault: FaultKind): string {
  const outcome = placeExpected(place, fault);
  const kept = keptExpected(place, fault) ? ', kept' : '';
  switch (outcome) {
    case 'shown': {
      const verb = place.kind === 'write' ? 'done' : 'shown';
      return fault === 'slow' ? `${verb}, 10 s` : fault === 'retryAfterShort' ? `${verb}, 1 s` : verb;
    }
    case 'failed':
      return `failed${kept}`;
    case 'maybe':
      return `may be done${kept}`;
    case 'accepted':
      return 'done, unreadable';
  }
}

/** The places of a run against the local platform in this mode (the spec-only platform has no assumed endpoint). */
export function placesFor(mode: string): FaultPlace[] {
  return FAULT_PLACES.filter((p) => mode !== 'spec-only' || !p.assumed);
}

export { FAULT_KINDS };
