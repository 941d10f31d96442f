import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentsClient } from '../../../src/client/agents';
import { AlertsClient } from '../../../src/client/alerts';
import { ChatClient } from '../../../src/client/chat';
import { DniClient } from '../../../src/client/dni';
import { ExternalEventsClient } from '../../../src/client/externalEvents';
import { OutboundClient } from '../../../src/client/outbound';
import type { RequestLog } from '../../../src/client/transport';
import { LOCAL_LIMITS } from '../../../src/localPlatform/ownLimits';
import { failure, localContext } from '../../support/localClient';
import { useLocalPlatform } from '../../support/localPlatform';

const AGENT = 'ag_support';
const MAIN = 'br_support_main';

/**
 * Limits the specification does not show are not the client's to enforce: it sends, and the platform's own
 * answer is what the person sees. Here the platform is the local one, whose refusals say they are its own.
 */
describe("client: limits the spec does not show are the platform's to judge", () => {
  const t = useLocalPlatform();

  /** The call went out once, and failed with the platform's 400 (not a refusal of the client). */
  async function sentAndRefusedByThePlatform(
    logs: readonly RequestLog[],
    promise: Promise<unknown>,
    field: RegExp,
  ): Promise<void> {
    const err = await failure(promise);
    assert.equal(err.kind, 'validation', err.message);
    assert.equal(err.status, 400);
    assert.match(err.message, /local platform/);
    assert.match(err.message, field);
    assert.equal(logs.length, 1, 'the request was sent');
  }

  it('[CHAT-4] a chat message over 4,096 characters is sent, and the platform answers', async () => {
    const chat = new ChatClient(localContext(t.lp));
    const { conversation_id } = await chat.create();
    const logs: RequestLog[] = [];
    const sending = new ChatClient(localContext(t.lp, { logs }));
    const message = 'x'.repeat(LOCAL_LIMITS.chatMessage + 1);
    await sentAndRefusedByThePlatform(logs, sending.respond({ conversation_id, message }), /message/);
  });

  it('[DNI-2] DNI attributes over 32 KB are sent, and the platform answers', async () => {
    const logs: RequestLog[] = [];
    const dni = new DniClient(localContext(t.lp, { logs }));
    const attributes = { blob: 'x'.repeat(LOCAL_LIMITS.dniAttributesBytes) };
    await sentAndRefusedByThePlatform(logs, dni.reserve(attributes), /attributes/);
  });

  const agentsCases: Array<[string, (a: AgentsClient) => Promise<unknown>, RegExp]> = [
    [
      '[AGENT-1] a description over 2,000 characters',
      (a) => a.createAgent({ name: 'Long story', description: 'd'.repeat(LOCAL_LIMITS.agentDescription + 1) }),
      /description/,
    ],
    ['[AGENT-2] a branch name with a space', (a) => a.createBranch(AGENT, 'holiday hours'), /name/],
    [
      '[AGENT-2] a branch name over 100 characters',
      (a) => a.createBranch(AGENT, 'b'.repeat(LOCAL_LIMITS.branchName + 1)),
      /name/,
    ],
    [
      '[AGENT-4] a behavior over 100,000 characters',
      (a) => a.updateBehavior(AGENT, MAIN, 'b'.repeat(LOCAL_LIMITS.behavior + 1)),
      /behavior/,
    ],
    [
      '[AGENT-5] a topic over 100,000 characters',
      (a) => a.createTopic(AGENT, MAIN, { name: 'Long', content: 'c'.repeat(LOCAL_LIMITS.topicContent + 1) }),
      /content/,
    ],
    [
      '[AGENT-6] a deployment message over 500 characters',
      (a) => a.publish(AGENT, 'sandbox', 'm'.repeat(LOCAL_LIMITS.deploymentMessage + 1)),
      /deploymentMessage/,
    ],
    [
      '[AGENT-12] more than 100 numbers in one import',
      (a) =>
        a.importPhoneNumbers(AGENT, {
          phoneNumbers: Array.from({ length: LOCAL_LIMITS.phoneNumbers + 1 }, (_, i) => `+1415555${1000 + i}`),
        }),
      /phoneNumbers/,
    ],
    [
      '[AGENT-12] a number in E.164 form that libphonenumber-js does not know',
      (a) => a.importPhoneNumbers(AGENT, { phoneNumbers: ['+999123'] }),
      /\+999123|phoneNumbers\[0\]/,
    ],
  ];
  for (const [what, act, field] of agentsCases) {
    it(`${what} is sent, and the platform answers`, async () => {
      const logs: RequestLog[] = [];
      await sentAndRefusedByThePlatform(logs, act(new AgentsClient(localContext(t.lp, { logs }))), field);
    });
  }

  const webhookCases: Array<[string, Parameters<AlertsClient['createEndpoint']>[0], RegExp]> = [
    [
      '[HOOK-1] a webhook endpoint name over 128 characters',
      {
        name: 'n'.repeat(LOCAL_LIMITS.webhookEndpointName + 1),
        url: 'https://example.com/hooks',
        event_types: ['alerts.triggered'],
      },
      /name/,
    ],
    [
      '[HOOK-1] a webhook endpoint url over 2,048 characters',
      {
        name: 'Long address',
        url: `https://example.com/${'u'.repeat(LOCAL_LIMITS.webhookUrl)}`,
        event_types: ['alerts.triggered'],
      },
      /url/,
    ],
    [
      '[HOOK-1] a webhook endpoint url that is not an http or https address',
      { name: 'Mail', url: 'mailto:ops@example.com', event_types: ['alerts.triggered'] },
      /url/,
    ],
  ];
  for (const [what, endpoint, field] of webhookCases) {
    it(`${what} is sent, and the platform answers`, async () => {
      const logs: RequestLog[] = [];
      await sentAndRefusedByThePlatform(
        logs,
        new AlertsClient(localContext(t.lp, { logs })).createEndpoint(endpoint),
        field,
      );
    });
  }

  const eventPathCases: Array<[string, string]> = [
    ['over 256 characters', 'p'.repeat(LOCAL_LIMITS.eventIdPath + 1)],
    ['of more than 32 parts', Array.from({ length: LOCAL_LIMITS.eventIdPathParts + 1 }, () => 'a').join('.')],
    ['with an empty part', 'result..id'],
  ];
  for (const [what, eventIdPath] of eventPathCases) {
    it(`[EXT-2] an event_id_path ${what} is sent, and the platform answers`, async () => {
      const logs: RequestLog[] = [];
      const events = new ExternalEventsClient(localContext(t.lp, { logs }));
      const sending = events.send({
        eventIdLocation: 'payload',
        eventIdPath,
        body: '{}',
        contentType: 'application/json',
      });
      await sentAndRefusedByThePlatform(logs, sending, /event_id_path/);
    });
  }

  it('[OUT-2] a number that parses but libphonenumber-js does not know as valid is sent, and the platform answers', async () => {
    const logs: RequestLog[] = [];
    const outbound = new OutboundClient(localContext(t.lp, { logs }));
    await sentAndRefusedByThePlatform(logs, outbound.placeCall({ to_number: '+12001234567' }), /to_number/);
  });

  it('[OUT-2] a number that cannot be parsed is still refused before sending', async () => {
    const logs: RequestLog[] = [];
    const outbound = new OutboundClient(localContext(t.lp, { logs }));
    const err = await failure(outbound.placeCall({ to_number: '+999123' }));
    assert.equal(err.kind, 'invalidInput', err.message);
    assert.match(err.message, /to_number/);
    assert.equal(logs.length, 0, 'nothing was sent');
  });
});
