import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkJsonSchema } from '../../../src/core/jsonSchema';

const paths = (schema: unknown, value: unknown): string[] =>
  checkJsonSchema(schema, value).map((v) => `${v.path}: ${v.message}`);

describe('JSON Schema checker of real-time configs (AGENT-10)', () => {
  const cases: Array<{ title: string; schema: unknown; value: unknown; expect: string[] }> = [
    {
      title: 'type integer rejects a fraction',
      schema: { type: 'integer' },
      value: 1.5,
      expect: [': must be of type integer'],
    },
    { title: 'type number accepts an integer', schema: { type: 'number' }, value: 3, expect: [] },
    {
      title: 'a list of types',
      schema: { type: ['string', 'null'] },
      value: 4,
      expect: [': must be one of the types string, null'],
    },
    { title: 'type null', schema: { type: ['string', 'null'] }, value: null, expect: [] },
    { title: 'arrays are not objects', schema: { type: 'object' }, value: [], expect: [': must be of type object'] },
    { title: 'enum with deep equality', schema: { enum: ['a', { b: 1 }] }, value: { b: 1 }, expect: [] },
    { title: 'enum miss', schema: { enum: ['a', 'b'] }, value: 'c', expect: [': must be one of "a", "b"'] },
    { title: 'const', schema: { const: 3 }, value: 4, expect: [': must be 3'] },
    { title: 'minimum and maximum', schema: { minimum: 1, maximum: 3 }, value: 0, expect: [': must be at least 1'] },
    {
      title: 'exclusive bounds',
      schema: { exclusiveMinimum: 0, exclusiveMaximum: 1 },
      value: 1,
      expect: [': must be less than 1'],
    },
    {
      title: 'minLength counts characters, not code units',
      schema: { minLength: 2 },
      value: '😀',
      expect: [': must be at least 2 characters'],
    },
    { title: 'maxLength', schema: { maxLength: 2 }, value: 'abc', expect: [': must be at most 2 characters'] },
    { title: 'pattern', schema: { pattern: '^[a-z]+$' }, value: 'A1', expect: [': must match ^[a-z]+$'] },
    { title: 'an invalid pattern is ignored', schema: { pattern: '([' }, value: 'x', expect: [] },
    {
      title: 'required',
      schema: { type: 'object', required: ['a', 'b'] },
      value: { a: 1 },
      expect: ['b: is required'],
    },
    {
      title: 'required does not see inherited names',
      schema: { type: 'object', required: ['toString'] },
      value: {},
      expect: ['toString: is required'],
    },
    {
      title: 'additionalProperties false names the extra key',
      schema: { type: 'object', properties: { a: {} }, additionalProperties: false },
      value: { a: 1, b: 2 },
      expect: ['b: is not a known property'],
    },
    {
      title: 'additionalProperties as a schema',
      schema: { type: 'object', additionalProperties: { type: 'string' } },
      value: { x: 1 },
      expect: ['x: must be of type string'],
    },
    {
      title: 'nested properties give dotted paths',
      schema: {
        type: 'object',
        properties: { hours: { type: 'object', properties: { open: { type: 'integer', maximum: 23 } } } },
      },
      value: { hours: { open: 30 } },
      expect: ['hours.open: must be at most 23'],
    },
    {
      title: 'items give indexed paths',
      schema: { type: 'array', items: { type: 'string' }, maxItems: 3 },
      value: ['a', 2, 'c', 'd'],
      expect: [': must hold at most 3 items', '[1]: must be of type string'],
    },
    { title: 'minItems', schema: { type: 'array', minItems: 1 }, value: [], expect: [': must hold at least 1 items'] },
    {
      title: 'true accepts anything, false nothing',
      schema: { type: 'object', properties: { a: true, b: false } },
      value: { a: 1, b: 2 },
      expect: ['b: is not allowed'],
    },
    {
      title: 'unknown keywords are ignored',
      schema: { type: 'string', format: 'email', 'x-ui': 1 },
      value: 'not an email',
      expect: [],
    },
    {
      title: 'several problems are all reported',
      schema: { type: 'object', properties: { n: { type: 'integer', minimum: 0 }, s: { enum: ['x'] } } },
      value: { n: -1, s: 'y' },
      expect: ['n: must be at least 0', 's: must be one of "x"'],
    },
  ];
  for (const c of cases) {
    it(`[AGENT-10] ${c.title}`, () => {
      assert.deepEqual(paths(c.schema, c.value), c.expect);
    });
  }
});
