import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The claims of a messaging access token. */
export interface AccessClaims {
  iss: string;
  aud: string;
  /** The connector the token was issued for. */
  sub: string;
  /** The X-Host it was issued to. */
  host: string;
  jti: string;
  iat: number;
  exp: number;
}

const ISSUER = 'agent-workbench-local-platform';
const AUDIENCE = 'messaging';
const HEADER = b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

function sign(secret: string, data: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

/** Issues an HS256 JWT for a connector, valid for `ttlSeconds` from `nowSeconds`. */
export function issueAccessToken(
  secret: string,
  connectorId: string,
  host: string,
  nowSeconds: number,
  ttlSeconds: number,
): { token: string; claims: AccessClaims } {
  const claims: AccessClaims = {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: connectorId,
    host,
    jti: randomBytes(12).toString('hex'),
    iat: nowSeconds,
    exp: nowSeconds + ttlSeconds,
  };
  const body = `${HEADER}.${b64(JSON.stringify(claims))}`;
  return { token: `${body}.${sign(secret, body).toString('base64url')}`, claims };
}

/** The claims of a token that is well formed, signed with `secret` and not expired; undefined otherwise. */
export function verifyAccessToken(secret: string, token: string, nowSeconds: number): AccessClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = sign(secret, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const h = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
    if (h.alg !== 'HS256') return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<AccessClaims>;
    if (
      claims.iss !== ISSUER ||
      claims.aud !== AUDIENCE ||
      typeof claims.sub !== 'string' ||
      typeof claims.jti !== 'string'
    )
      return undefined;
    if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) return undefined;
    return claims as AccessClaims;
  } catch {
    return undefined;
  }
}
