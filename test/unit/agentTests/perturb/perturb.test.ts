// Voice-shaped words: each kind alone, at rates 0 and 1, the same seed giving the same words and another seed others.
import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { allAt, NO_RATES, type PerturbKind } from '../../../../src/agentTests/perturb/kinds';
import { perturb } from '../../../../src/agentTests/perturb/perturb';

const only = (kind: PerturbKind, rate = 1) => ({ ...NO_RATES, [kind]: rate });
const say = (text: string, kind: PerturbKind, seed = 1, language?: string) =>
  perturb({ text, seed, rates: only(kind), ...(language ? { language } : {}) });

/** Each written text, with every number spoken in `language`, reads as said. */
function speaks(language: string, pairs: readonly (readonly [string, string])[]): void {
  for (const [written, said] of pairs) assert.equal(say(written, 'numbers', 1, language).text, said);
}

test('numbers, ordinals, times and dates are said in words as recognition writes them', () => {
  speaks('en', [
    ['A table for 4 on the 25th at 9:30', 'A table for four on the twenty fifth at nine thirty'],
    ['Meet at 9:05pm, or 10:00', "Meet at nine oh five pm, or ten o'clock"],
    ['On 2026-12-25 we close at 4pm', 'On december twenty fifth twenty twenty six we close at four pm'],
    [
      'It costs $45.50, 15% off 10,000 items',
      'It costs forty five dollars fifty, fifteen percent off ten thousand items',
    ],
    [
      'Call 07700 900123 about 2.5 kilos',
      'Call oh seven seven oh oh nine hundred thousand one hundred twenty three about two point five kilos',
    ],
    ['The 1st, 2nd, 3rd and 112th', 'The first, second, third and one hundred twelfth'],
  ]);
  assert.deepEqual(say('No digits here', 'numbers').applied, []);
});

test('fillers and restarts come at the start of the message and of its clauses', () => {
  const written = 'I want a table. For four, please';
  const texts = Array.from({ length: 20 }, (_, seed) => say(written, 'fillers', seed).text);
  for (const text of texts) {
    // At rate 1 each of the three clauses starts with a filler ("um,") or a restart ("I- I"); nothing else changes.
    const events = text.match(/\b(um|uh|er|erm|like|you know|so), |\b\w+- /gi) ?? [];
    assert.equal(events.length, 3, text);
    const without = text.replace(/\b(um|uh|er|erm|like|you know|so), |\b\w+- /gi, '');
    assert.equal(without.toLowerCase(), written.toLowerCase(), text);
  }
  assert.ok(
    texts.some((t) => /^(Um|Uh|Er|Erm|Like|You know|So), I want/.test(t)),
    texts.join('\n'),
  );
  assert.ok(
    texts.some((t) => t.startsWith('I- I want')),
    texts.join('\n'),
  );
});

test('punctuation and casing are dropped from the whole message', () => {
  const out = say('Hello! Can I book a table, for Friday?', 'punctuation');
  assert.equal(out.text, 'hello can i book a table for friday');
  assert.deepEqual(out.applied, ['punctuation']);
});

test('words of the bundled list are misheard; others stay', () => {
  assert.equal(say('I lost my card on Tuesday', 'mishearings').text, 'I last my car on Thursday');
  assert.equal(say('Hello world', 'mishearings').text, 'Hello world');
});

test('truncation cuts the end of the message, never all of it', () => {
  for (let seed = 0; seed < 20; seed++) {
    const out = say('I would like to book a table for four people tonight', 'truncation', seed);
    const words = out.text.split(' ');
    // Eleven words: one to three are cut.
    assert.ok(words.length >= 8 && words.length <= 10, out.text);
    assert.ok('I would like to book a table for four people tonight'.startsWith(out.text));
  }
  assert.equal(say('Hello', 'truncation').text, 'Hello');
});

test('at rate 0 the words are sent as written, whitespace and all; at rate 1 every kind applies', () => {
  const text = 'A table for  four on the 25th at 9:30, please.\nThanks';
  const none = perturb({ text, seed: 3, rates: allAt(0) });
  assert.equal(none.text, text);
  assert.deepEqual(none.applied, []);
  const all = perturb({ text: 'I lost my card on the 25th. Can you block it?', seed: 3, rates: allAt(1) });
  assert.deepEqual(all.applied, ['numbers', 'mishearings', 'truncation', 'fillers', 'punctuation']);
  assert.equal(all.text, all.text.toLowerCase());
  assert.doesNotMatch(all.text, /\d|[.?]/);
});

test('the same seed gives the same words; another seed gives other words', () => {
  const text = 'I lost my card on the 25th at 9:30. Can you block it and send a new one to my address?';
  const at = (seed: number) => perturb({ text, seed, rates: allAt(0.5) }).text;
  assert.equal(at(7), at(7));
  const others = new Set(Array.from({ length: 10 }, (_, i) => at(100 + i)));
  assert.ok(others.size >= 8, [...others].join('\n'));
  assert.notEqual(at(7), at(8));
});

test("one kind's rate leaves what the others do unchanged", () => {
  const text = 'I lost my card on Tuesday, the 25th';
  const base = { ...NO_RATES, numbers: 1, mishearings: 0.5 };
  const a = perturb({ text, seed: 5, rates: base }).text;
  const b = perturb({ text, seed: 5, rates: { ...base, punctuation: 1 } }).text;
  assert.equal(b, a.toLowerCase().replace(/,/g, ''));
});

test('a language without word lists says so, and only punctuation and truncation apply', () => {
  const out = perturb({ text: 'Une table pour 4, le 25.', seed: 1, rates: allAt(1), language: 'fr-FR' });
  assert.equal(out.language, undefined);
  assert.deepEqual(out.withoutLists, ['numbers', 'fillers', 'mishearings']);
  assert.match(out.text, /^une table pour( 4( le)?)?$/);
  assert.deepEqual(out.applied, ['truncation', 'punctuation']);
  const english = perturb({ text: 'A table for 4', seed: 1, rates: only('numbers'), language: 'en-GB' });
  assert.deepEqual([english.language, english.text, english.withoutLists], ['en', 'A table for four', undefined]);
});

test('Spanish has word lists of its own: numbers, times and dates in Spanish words, Spanish fillers and mishearings', () => {
  const es = (text: string, kind: PerturbKind, seed = 1) => say(text, kind, seed, 'es-MX');
  speaks('es-MX', [
    ['Una mesa para 4 el 25 a las 9:30', 'Una mesa para cuatro el veinticinco a las nueve y media'],
    [
      'El 1º de mayo, 21000 euros, 2026-12-25 a las 4pm',
      'El primero de mayo, veintiún mil euros, veinticinco de diciembre de dos mil veintiséis a las cuatro de la tarde',
    ],
  ]);
  assert.equal(es('Perdí mi tarjeta el martes', 'mishearings').text, 'Pedí mi tarjetas el jueves');
  const fillers = Array.from({ length: 10 }, (_, seed) => es('Quiero una mesa', 'fillers', seed).text);
  assert.ok(
    fillers.some((t) => /^(Eh|Este|Pues|O sea|Bueno|Mmm), quiero una mesa$/.test(t)),
    fillers.join('\n'),
  );
  assert.equal(es('Quiero una mesa', 'numbers').language, 'es');
});
