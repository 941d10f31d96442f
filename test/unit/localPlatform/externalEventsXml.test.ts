import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseXml, XmlError, xmlToJson } from '../../../src/localPlatform/externalEvents/xml';

const read = (xml: string): unknown => {
  const root = parseXml(xml);
  return { [root.name]: xmlToJson(root) };
};

describe('XML result payloads of the External Events API (spec: Endpoints > External Events API)', () => {
  const good: Array<[string, string, unknown]> = [
    [
      'a declaration, comments and whitespace',
      '<?xml version="1.0" encoding="UTF-8"?>\n<!-- result -->\n<r>\n  <id> evt_1 </id>\n</r>\n',
      { r: { id: 'evt_1' } },
    ],
    [
      'nested elements',
      '<r><booking><ref>B-1</ref><slot>10:00</slot></booking></r>',
      { r: { booking: { ref: 'B-1', slot: '10:00' } } },
    ],
    [
      'repeated elements as a list',
      '<r><seat>1A</seat><seat>1B</seat><seat>1C</seat><n>3</n></r>',
      { r: { seat: ['1A', '1B', '1C'], n: '3' } },
    ],
    ['self-closing and empty elements', '<r><a/><b></b><c x="1"/></r>', { r: { a: '', b: '', c: { '@x': '1' } } }],
    [
      'attributes in either quote',
      `<r id="1" kind='paid'><v>2</v></r>`,
      { r: { '@id': '1', '@kind': 'paid', v: '2' } },
    ],
    [
      'the predefined entities and character references',
      '<r><v>&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos; &#65;&#x42;</v></r>',
      { r: { v: `<a> & "b" 'c' AB` } },
    ],
    ['CDATA kept verbatim', '<r><v><![CDATA[<not> & markup]]></v></r>', { r: { v: '<not> & markup' } }],
    [
      'namespaced names',
      '<ns:r xmlns:ns="urn:x"><ns:id>7</ns:id></ns:r>',
      { 'ns:r': { '@xmlns:ns': 'urn:x', 'ns:id': '7' } },
    ],
    ['mixed text beside elements', '<r>paid <ref>1</ref></r>', { r: { ref: '1', '#text': 'paid' } }],
  ];
  for (const [label, xml, expected] of good) {
    it(`[EXT-3] reads ${label}`, () => {
      assert.deepEqual(read(xml), expected);
    });
  }

  it('[EXT-3] an element named __proto__ is an ordinary key and changes no prototype', () => {
    const value = read('<r><__proto__><polluted>yes</polluted></__proto__></r>') as { r: Record<string, unknown> };
    assert.deepEqual(Object.keys(value.r), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(value.r), Object.prototype);
  });

  const bad: Array<[string, string, RegExp]> = [
    [
      'a document type declaration (no entity expansion)',
      '<!DOCTYPE r [<!ENTITY a "aaaa">]><r>&a;</r>',
      /document type/,
    ],
    ['an unknown entity', '<r>&nbsp;</r>', /unknown entity/],
    ['mismatched tags', '<r><a></b></r>', /does not match/],
    ['an unclosed element', '<r><a>1</a>', /not closed/],
    ['two root elements', '<r/><s/>', /more than one root/],
    ['text outside the root', 'hello <r/>', /outside the root/],
    ['no element at all', '   ', /no root element/],
    ['an unterminated comment', '<r><!-- x</r>', /unterminated comment/],
    ['an attribute without quotes', '<r a=1/>', /quoted attribute/],
    ['an invalid character reference', '<r>&#0;</r>', /character reference/],
    ['elements nested too deep', `${'<a>'.repeat(65)}${'</a>'.repeat(65)}`, /deeper than 64/],
  ];
  for (const [label, xml, message] of bad) {
    it(`[EXT-3] refuses ${label}`, () => {
      assert.throws(
        () => parseXml(xml),
        (err: unknown) => err instanceof XmlError && message.test(err.message),
      );
    });
  }
});
