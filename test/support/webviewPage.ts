// What every panel's page must be: a content security policy that lets in no inline or eval script (one module
// script, by a nonce of 16 random bytes), nothing by default, and a connection only to the page's own socket. Used
// on the pages the panel host writes (unit) and on the pages of the panels open in the editor (integration).
import assert from 'node:assert/strict';

/** The directives of a page's policy, each with its sources. */
export function policyOf(html: string): Map<string, string[]> {
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
  assert.ok(content, 'the page has a content security policy');
  return new Map(
    content.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );
}

const UNSAFE = ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'wasm-unsafe-eval'", "'strict-dynamic'", '*'];

/**
 * Checks a panel's page; `where` names it in a failure. `connectTo`: the origin of its own socket, undefined for a
 * page without one (connecting then falls to default-src 'none'), null for either. Returns the page's nonce.
 */
export function checkPanelPage(html: string, where: string, connectTo?: string | null): string {
  const csp = policyOf(html);
  assert.deepEqual(csp.get('default-src'), ["'none'"], `${where}: nothing by default`);
  const scriptSrc = csp.get('script-src') ?? [];
  assert.equal(scriptSrc.length, 1, `${where}: one script source, the nonce (${scriptSrc.join(' ')})`);
  const nonce = /^'nonce-([A-Za-z0-9+/=]+)'$/.exec(scriptSrc[0]!)?.[1];
  assert.ok(nonce && Buffer.from(nonce, 'base64').length === 16, `${where}: a nonce of 16 random bytes`);
  for (const [name, values] of csp)
    for (const unsafe of UNSAFE) assert.ok(!values.includes(unsafe), `${where}: ${name} allows ${unsafe}`);
  if (connectTo !== null)
    assert.deepEqual(
      csp.get('connect-src'),
      connectTo ? [connectTo] : undefined,
      `${where}: connects to its socket only`,
    );
  const tags = [...html.matchAll(/<(\w+)((?:\s+[\w-]+="[^"]*")*)\s*>/g)];
  const scripts = tags.filter((t) => t[1] === 'script');
  assert.equal(scripts.length, 1, `${where}: one script element`);
  assert.match(scripts[0]![2]!, /^ type="module" nonce="[^"]+" src="[^"]+"$/, `${where}: the module script by src`);
  assert.ok(scripts[0]![2]!.includes(`nonce="${nonce}"`), `${where}: the script has the policy's nonce`);
  assert.match(html, /<script [^>]*><\/script>/, `${where}: no inline script`);
  assert.ok(
    tags.every((t) => [...t[2]!.matchAll(/\s+([\w-]+)="[^"]*"/g)].every((a) => !/^on/i.test(a[1]!))),
    `${where}: no attribute of any element is an event handler`,
  );
  assert.doesNotMatch(html, /javascript:/i, `${where}: no javascript: address`);
  return nonce;
}
