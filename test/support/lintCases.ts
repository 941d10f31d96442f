// The files that break each rule of the checks of agent folders, and files that do not.
import { TEST_KEYS } from './secretsScan';

const topic = (name: string, content: string): string => `---\nname: ${name}\n---\n\n${content}\n`;

const OPENING =
  'The store opens at nine in the morning and closes at five in the evening on every weekday except public holidays.';

/** Files of an agent folder that break one rule, and the same paths (mostly) written so that they do not. */
export interface LintCase {
  breaks: Record<string, string>;
  passes: Record<string, string>;
}

const manifest = (name: string): string =>
  JSON.stringify({ agentId: 'ag_a', name, profile: 'local', branch: { branchId: 'br_a', name: 'main' } });

/** One case per rule: the unit tests lint them directly, the editor's tests type them into documents. */
export const LINT_CASES: Record<string, LintCase> = {
  'agent-json-invalid': {
    breaks: { 'agent.json': '{"agentId": "ag_a", "name": "A"}' },
    passes: { 'agent.json': manifest('A') },
  },
  'agent-name-length': {
    breaks: { 'agent.json': manifest('x'.repeat(129)) },
    passes: { 'agent.json': manifest('x'.repeat(128)) },
  },
  // JSON that does not parse is a case of its own in the editor (its JSON support marks it): front matter here.
  'file-unreadable': {
    breaks: { 'knowledge/broken.md': '---\nname: [open\n---\n\nHours\n' },
    passes: { 'knowledge/broken.md': topic('Broken', 'Hours') },
  },
  'file-ignored-by-push': {
    breaks: { 'knowledge/faq.txt': 'Hours' },
    // The conversation tests of the folder (Save as Test writes them) are its own files.
    passes: {
      'knowledge/faq.md': topic('FAQ', 'Hours'),
      'tests/conversations.yaml': 'cases: []\n',
      'tests/greeting.yml': 'cases: []\n',
    },
  },
  'file-name-refused': {
    breaks: { 'realtime/store settings.json': '{}' },
    passes: { 'realtime/store-settings.json': '{}' },
  },
  'content-size': {
    breaks: { 'knowledge/big.md': topic('Big', 'x'.repeat(100_001)) },
    passes: { 'knowledge/big.md': topic('Big', 'x'.repeat(100_000)) },
  },
  'topic-name-empty': {
    breaks: { 'knowledge/faq.md': '---\nname: ""\n---\n\nHours\n' },
    passes: { 'knowledge/faq.md': topic('FAQ', 'Hours') },
  },
  'topic-content-empty': {
    breaks: { 'knowledge/faq.md': topic('FAQ', '  ') },
    passes: { 'knowledge/faq.md': topic('FAQ', 'Hours') },
  },
  'topic-duplicate-name': {
    breaks: { 'knowledge/a.md': topic('Hours', 'Nine to five'), 'knowledge/b.md': topic('hours', 'Closed Sundays') },
    passes: { 'knowledge/a.md': topic('Hours', 'Nine to five'), 'knowledge/b.md': topic('Sundays', 'Closed Sundays') },
  },
  'topic-near-duplicate': {
    breaks: {
      'knowledge/a.md': topic('Hours', OPENING),
      'knowledge/b.md': topic('Opening', `${OPENING} Thanks.`),
    },
    passes: {
      'knowledge/a.md': topic('Hours', OPENING),
      'knowledge/b.md': topic('Returns', 'Items can be returned within thirty days with the receipt at any store.'),
    },
  },
  secret: {
    breaks: { 'behavior.md': `Use the key ${TEST_KEYS.inPrompt} when asked.\n` },
    passes: { 'behavior.md': 'Look the order up with the lookup tool when asked.\n' },
  },
  'personal-data': {
    breaks: { 'knowledge/contact.md': topic('Contact', 'Ask Jane on +44 20 7946 0958.') },
    passes: { 'knowledge/contact.md': topic('Contact', 'Use the contact form on the website.') },
  },
  'behavior-length-budget': {
    breaks: { 'behavior.md': 'Be brief. '.repeat(2_001) },
    passes: { 'behavior.md': 'Be brief. '.repeat(100) },
  },
  'behavior-prohibition-only': {
    breaks: { 'behavior.md': '- Never discuss prices.\n' },
    passes: { 'behavior.md': '- Never discuss prices; offer to send the price list instead.\n' },
  },
  'behavior-scripted-line': {
    breaks: { 'behavior.md': 'Say: "Thank you for calling Acme, how can I help?"\n' },
    passes: { 'behavior.md': 'Greet the caller warmly and ask how you can help.\n' },
  },
  'realtime-variables': {
    breaks: { 'realtime/store.json': '{\n  "holidayMode": null\n}\n' },
    passes: { 'realtime/store.json': '{\n  "holidayMode": false\n}\n' },
  },
};
