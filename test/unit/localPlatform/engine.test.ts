import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { ConversationEndedError, engineOf } from '../../../src/localPlatform/engine/agentEngine';
import { chunkAnswer } from '../../../src/localPlatform/engine/chunker';
import { stem, terms } from '../../../src/localPlatform/engine/language';
import { fallbackLine, greetingLine, personaOf } from '../../../src/localPlatform/engine/persona';
import { TopicIndex } from '../../../src/localPlatform/engine/retrieval';
import { classify, extractEntities } from '../../../src/localPlatform/engine/understanding';
import { Platform } from '../../../src/localPlatform/platform';
import { LOCAL_AGENT_ID } from '../../../src/localPlatform/seed/credentials';
import { applySeed } from '../../../src/localPlatform/seed/seeds';

const topic = (id: string, name: string, content: string) => ({
  topicId: id,
  name,
  content,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('agent engine (spec: Conversation record > Turn object; Chat reply)', () => {
  let platform: Platform;
  beforeEach(() => {
    platform = new Platform({ streamDelayMs: 0 });
    applySeed(platform, 'base');
  });
  const start = (extra: Record<string, unknown> = {}) =>
    engineOf(platform).start({
      agentId: LOCAL_AGENT_ID,
      environment: 'sandbox',
      channel: 'CHAT',
      source: 'chat',
      ...extra,
    });

  it('[CONV-21] every turn carries all turn fields, a latency in ms and datetimes from the platform clock', () => {
    platform.clock.set(Date.parse('2026-03-01T10:00:00.000Z'));
    const { conversation } = start();
    platform.clock.advance(5000);
    engineOf(platform).respond(conversation, {
      message: 'Can I return shoes bought on 2026-02-20? Email me at kim@example.org',
    });
    const turn = conversation.turns[1]!;
    assert.deepEqual(Object.keys(turn).sort(), [
      'agent_response',
      'agent_response_datetime',
      'barge_in',
      'english_agent_response',
      'entities',
      'intents',
      'is_ood',
      'is_silence',
      'latency',
      'translated_user_input',
      'user_input',
      'user_input_datetime',
      'user_input_dtmf',
    ]);
    const at = Date.parse(turn.user_input_datetime!) - Date.parse('2026-03-01T10:00:05.000Z');
    assert.ok(at >= 0 && at < 60_000, `user_input_datetime ${turn.user_input_datetime} follows the platform clock`);
    assert.ok(turn.latency > 100 && Number.isInteger(turn.latency));
    assert.equal(Date.parse(turn.agent_response_datetime!) - Date.parse(turn.user_input_datetime!), turn.latency);
    assert.deepEqual(turn.intents, ['faq.returns']);
    assert.deepEqual(turn.entities, { email: 'kim@example.org', date: '2026-02-20' });
    assert.equal(turn.is_ood, false);
    assert.equal(turn.is_silence, false);
    assert.match(conversation.started_at, /^2026-03-01T10:0/);
  });

  it('[CONV-21] the same answer has the same latency every time', () => {
    const a = start().conversation;
    const b = start().conversation;
    const ra = engineOf(platform).respond(a, { message: 'delivery times?' });
    const rb = engineOf(platform).respond(b, { message: 'delivery times?' });
    assert.equal(ra.latency, rb.latency);
  });

  it('[CHAT-5] an empty message is a silence turn; an unknown question is out of domain with a fallback naming the topics', () => {
    const { conversation } = start();
    const silence = engineOf(platform).respond(conversation, { message: '   ' });
    assert.equal(silence.isSilence, true);
    const ood = engineOf(platform).respond(conversation, { message: 'Who won the football match yesterday?' });
    assert.equal(ood.isOod, true);
    assert.deepEqual(ood.intents, ['ood']);
    assert.equal(ood.response, "Sorry, I can't help with that. I can help with opening hours, returns and delivery.");
    assert.deepEqual(
      conversation.turns.map((t) => [t.is_silence, t.is_ood]),
      [
        [false, false],
        [true, false],
        [false, true],
      ],
    );
  });

  it('[CHAT-5] a handoff goes to the destination given at start, else to human-support-queue', () => {
    const own = start({ handoffDestination: '+14155550100' }).conversation;
    assert.deepEqual(engineOf(platform).respond(own, { message: 'get me a human' }).handoff, {
      destination: '+14155550100',
      reason: 'The user asked to speak to a person',
    });
    const plain = start().conversation;
    assert.equal(
      engineOf(platform).respond(plain, { message: 'representative please' }).handoff?.destination,
      'human-support-queue',
    );
    assert.equal(plain.handoff, true);
    assert.equal(plain.metrics.HANDOFF_TO, 'human-support-queue');
  });

  it('[CHAT-5] goodbye ends the conversation; a later turn is refused', () => {
    const { conversation } = start();
    assert.equal(engineOf(platform).respond(conversation, { message: 'ok goodbye' }).endConversation, true);
    assert.equal(conversation.in_progress, false);
    assert.equal(conversation.metrics.CALL_COMPLETED, 'true');
    assert.throws(() => engineOf(platform).respond(conversation, { message: 'hello?' }), ConversationEndedError);
  });

  it('[CHAT-3] start state and integration attributes land in conv.state; the greeting uses the caller name', () => {
    const { conversation, greeting } = start({
      integrationAttributes: { first_name: 'Ana' },
      state: { sip_headers: { 'X-Order': '42' } },
    });
    assert.match(greeting, /^Hello Ana!/);
    assert.deepEqual(conversation.state, {
      sip_headers: { 'X-Order': '42' },
      integration_attributes: { first_name: 'Ana' },
    });
  });

  it("[AGENT-6] the engine answers from the deployment of the environment, and from main's draft where there is none", () => {
    const main = platform.state.agents.branches.br_support_main!;
    main.content.topics.kt_parking = topic('kt_parking', 'Parking', 'Free parking is available behind every store.');
    const sandbox = start().conversation;
    assert.equal(engineOf(platform).respond(sandbox, { message: 'where can I park?' }).isOod, true);
    for (const d of Object.values(platform.state.agents.deployments)) if (d.environment === 'sandbox') d.active = false;
    const draft = start().conversation;
    assert.match(engineOf(platform).respond(draft, { message: 'where can I park?' }).response, /Free parking/);
  });

  it('[AGENT-10] a greetingOverride runtime value takes effect at once', () => {
    platform.state.agents.realtimeConfigs[0]!.variables.greetingOverride = 'Welcome to Acme support!';
    assert.equal(start().greeting, 'Welcome to Acme support!');
  });
});

describe('agent engine language (spec: Chat reply; Messaging events)', () => {
  it('[CHAT-5] questions are ranked against topic names and contents; a single-topic agent still matches', () => {
    const index = new TopicIndex([
      topic('a', 'Opening hours', 'We open at 9am and close at 6pm.'),
      topic('b', 'Returns', 'Return items within 30 days.'),
      topic('c', 'Delivery', 'Delivery takes 3 to 5 days.'),
    ]);
    assert.equal(index.rank('When do you open?')[0]!.topic.topicId, 'a');
    assert.equal(index.rank('how do I return something')[0]!.topic.topicId, 'b');
    assert.equal(index.rank('when will it be delivered')[0]!.topic.topicId, 'c');
    assert.deepEqual(index.rank('the and of'), []);
    const single = new TopicIndex([topic('p', 'Parking', 'Parking is free.')]);
    assert.ok(single.rank('is parking free?')[0]!.score >= 1);
  });

  it('[CHAT-5] intents by rule: silence, handoff, goodbye, greeting, question', () => {
    const cases: Array<[string, string]> = [
      ['', 'silence'],
      ['Can I speak to an agent?', 'handoff'],
      ['I need a real person', 'handoff'],
      ['Bye!', 'goodbye'],
      ["That's all, thanks", 'goodbye'],
      ['Hello there!', 'greeting'],
      ['Hi, where is my parcel?', 'question'],
    ];
    for (const [text, act] of cases) assert.equal(classify(text), act, text);
  });

  it('[CONV-21] entities: emails, dates and numbers, numbered when repeated', () => {
    assert.deepEqual(extractEntities('Order 1234 and 56, email a.b@c.io, on 12/03/2026 or March 5'), {
      email: 'a.b@c.io',
      date: '12/03/2026',
      date_2: 'March 5',
      number: '1234',
      number_2: '56',
    });
    assert.deepEqual(extractEntities('nothing here'), {});
  });

  it('[CHAT-5] words are stemmed alike and stopwords dropped', () => {
    assert.equal(stem('returns'), stem('returned'));
    assert.equal(stem('deliveries'), 'delivery');
    assert.deepEqual(terms('What are your opening hours?'), ['open', 'hour']);
  });

  it('[CHAT-1] greetings come from the persona in the behavior, else its title', () => {
    assert.equal(
      greetingLine(personaOf('You are Robin, the booking assistant of Hotel Nord.')),
      "Hello! I'm Robin, the booking assistant of Hotel Nord. How can I help you today?",
    );
    assert.equal(
      greetingLine(personaOf('# Pizza Place\nTake orders.')),
      'Hello! Welcome to Pizza Place. How can I help you today?',
    );
    assert.equal(greetingLine(personaOf('be nice')), 'Hello! How can I help you today?');
    assert.equal(fallbackLine([]), "Sorry, I can't help with that.");
  });

  for (const text of ['Standard delivery takes 3 to 5 working days.', '  leading and trailing  ', 'one', '']) {
    it(`[MSG-24] chunks of ${JSON.stringify(text)} join back to the answer`, () => {
      const chunks = chunkAnswer(text, 2);
      assert.equal(chunks.join(''), text);
      assert.ok(chunks.length >= 1);
    });
  }
});
