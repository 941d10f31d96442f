import { LOCAL_LIMITS, overLocalLimit } from '../ownLimits';
import { isValidPhoneNumber, parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  E164_PATTERN,
  importPhoneNumbersRequestSchema,
  type ImportPhoneNumbersResponse,
  type ListPhoneNumbersResponse,
} from '../../contract/agents';
import type { Environment } from '../../contract/common';
import { buildError, type Router } from '../http';
import type { Platform } from '../platform';
import type { StoredConnector } from '../state';
import type { AgentsAccess } from './access';
import type { StoredAgent } from './model';
import { toPhoneNumber } from './render';
import { parseBody, requireOwnLimits } from './validate';

/**
 * Telephony numbers of an agent. An import is all or nothing for malformed numbers (400 naming
 * each one); numbers that are already known are skipped and reported, the rest imported.
 */
export function registerTelephonyRoutes(router: Router, access: AgentsAccess): void {
  const path = '/v1/agents/:agentId/telephony/phone-numbers';

  router.get(path, (ctx) => {
    const agent = access.agent(ctx, access.key(ctx, false));
    const connectorId = ctx.query.get('connectorId');
    const numbers = access.state.phoneNumbers.filter(
      (n) => n.agentId === agent.agentId && (connectorId === null || n.connectorId === connectorId),
    );
    const body: ListPhoneNumbersResponse = { phoneNumbers: numbers.map(toPhoneNumber) };
    return { body };
  });

  router.post(path, (ctx) => {
    const agent = access.agent(ctx, access.key(ctx, true));
    const body = parseBody(ctx, importPhoneNumbersRequestSchema);
    if (body.phoneNumbers.length > LOCAL_LIMITS.phoneNumbers)
      requireOwnLimits([
        { field: 'phoneNumbers', message: overLocalLimit(LOCAL_LIMITS.phoneNumbers, 'numbers per import') },
      ]);
    const errors = body.phoneNumbers.flatMap((n, i) =>
      isE164(n) ? [] : [{ field: `phoneNumbers[${i}]`, message: notE164(n) }],
    );
    if (errors.length > 0)
      throw buildError(
        400,
        'The local platform imports only numbers in E.164 form that libphonenumber-js knows for their country (a rule of its own); nothing was imported',
        errors,
      );
    const connector = connectorFor(access.platform, agent, body.clientEnv, body.connectorId);
    const owners = new Map(access.state.phoneNumbers.map((n) => [n.number, n.agentId]));
    const reply: ImportPhoneNumbersResponse = { imported: [], skipped: [] };
    for (const number of body.phoneNumbers) {
      const owner = owners.get(number);
      if (owner === undefined) {
        access.state.phoneNumbers.push({
          number,
          projectId: agent.projectId,
          accountId: agent.accountId,
          clientEnv: body.clientEnv,
          connectorId: connector.id,
          agentId: agent.agentId,
        });
        owners.set(number, agent.agentId);
        reply.imported.push(number);
      } else {
        const reason =
          reply.imported.includes(number) || reply.skipped!.some((s) => s.number === number)
            ? 'duplicate'
            : owner === agent.agentId
              ? 'already-imported'
              : 'taken';
        reply.skipped!.push({ number, reason });
      }
    }
    return { body: reply };
  });
}

function isE164(n: string): boolean {
  return E164_PATTERN.test(n) && isValidPhoneNumber(n);
}

function notE164(n: string): string {
  const parsed = parsePhoneNumberFromString(n);
  if (parsed?.isValid() && parsed.number !== n) return `must be in E.164 form, for example ${parsed.number}`;
  return 'the local platform takes only numbers in E.164 form (+ country code and number, no spaces) that libphonenumber-js knows for their country';
}

/** The named connector of the agent, else its voice connector of that environment, made on first use. */
function connectorFor(
  platform: Platform,
  agent: StoredAgent,
  env: Environment,
  connectorId: string | undefined,
): StoredConnector {
  const own = platform.state.connectors.filter((c) => c.agentId === agent.agentId);
  if (connectorId !== undefined) {
    const named = own.find((c) => c.id === connectorId);
    if (!named)
      throw buildError(400, `Connector not found on this agent: ${connectorId}`, [
        { field: 'connectorId', message: 'no such connector of this agent' },
      ]);
    return named;
  }
  const voice = own.find((c) => c.kind === 'voice' && c.environment === env);
  if (voice) return voice;
  const id = platform.nextId('conn');
  const made: StoredConnector = {
    id,
    token: `lp_voice_token_${id}`,
    kind: 'voice',
    accountId: agent.accountId,
    projectId: agent.projectId,
    agentId: agent.agentId,
    environment: env,
    outboundEnabled: false,
  };
  platform.state.connectors.push(made);
  return made;
}
