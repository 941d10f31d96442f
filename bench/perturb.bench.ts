// Voice-shaped callers: rewording 10,000 user turns as speech recognition hands them over (`perturb:`), every kind at
// 0.3, each turn its own seed, as a run of many perturbed cases does before it sends them. No platform: the rewording
// is what is measured (the runner sends the words as it sends any).
import { allAt } from '../src/agentTests/perturb/kinds';
import { perturb } from '../src/agentTests/perturb/perturb';
import { median } from '../test/support/median';
import { bench } from './platformProcess';

const TURNS = 10_000;
const ROUNDS = 5;
const WARM_UP = 3;
const RATES = allAt(0.3);
const MESSAGES = [
  'Hello! I would like a table for 4 on the 25th at 9:30, please.',
  'I lost my card on 2026-12-02 and I want to block it. Can you help?',
  'What are your opening hours on Tuesday?',
  'Can I return an item after 30 days, and will the refund of $45.50 come back to my account?',
  'My booking reference is 07700 900123.',
  'Thanks, goodbye',
  'I want to speak to a person',
  'Could you change my appointment to tomorrow at 4pm, or Thursday the 3rd?',
];

function rewordAll(): number {
  let words = 0;
  for (let i = 0; i < TURNS; i++)
    words += perturb({ text: MESSAGES[i % MESSAGES.length] ?? '', seed: i, rates: RATES }).text.length;
  return words;
}

// Three rounds not counted: the first 30,000 turns are where the code is compiled and optimised (a cold round is
// about ten times a warm one), as it is by then in any run of many perturbed cases.
for (let i = 0; i < WARM_UP; i++) rewordAll();
const times: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const t0 = performance.now();
  rewordAll();
  times.push(performance.now() - t0);
}
bench(
  `conversation tests: perturbation of ${TURNS.toLocaleString('en')} user turns (every kind at 0.3, median of ${ROUNDS})`,
  median(times),
  'ms',
  '< 100',
);
