// The one door to the platform's API: every platform client of the editor, and every value of the contract
// it uses, comes from here. The client bundle (dist/client.js, with zod and undici) is required the first
// time one of them is used, never at activation; everything else imports only types from src/client.
import type { AgentsClient } from '../../client/agents';
import type { AlertsClient } from '../../client/alerts';
import type { ChatClient } from '../../client/chat';
import type { ConcurrencyClient } from '../../client/concurrency';
import type { ClientContext } from '../../client/context';
import type { ConversationsClient } from '../../client/conversations';
import type { DniClient } from '../../client/dni';
import type { ExternalEventsClient } from '../../client/externalEvents';
import type { MessagingClient } from '../../client/messaging';
import type { OutboundClient } from '../../client/outbound';
import type { ProbeResult } from '../../client/probe';
import type { ConnectionProfile, CredentialSource } from '../../client/profile';
import type * as Runtime from '../../client/runtime';
import type { RequestLog, Transport } from '../../client/transport';
import { lazyBundle } from '../bundles';

type ClientRuntime = typeof Runtime;

const clientRuntime = lazyBundle<ClientRuntime>('client.js');

/** The contract's values the editor uses (limits, enumerations, checks), one module per API family. */
export type PlatformContract = Pick<
  ClientRuntime,
  | 'commonContract'
  | 'agentsContract'
  | 'alertsContract'
  | 'conversationsContract'
  | 'concurrencyContract'
  | 'messagingContract'
  | 'outboundContract'
  | 'dniContract'
  | 'externalEventsContract'
>;

/** The contract's values, for checks as a person types: they need no profile. */
export function platformContract(): PlatformContract {
  return clientRuntime();
}

/**
 * The one transport of the editor (keep-alive pools per origin), each request told to `onRequest`, waiting
 * `timeoutMs` for each answer.
 */
export function newTransport(onRequest: (entry: RequestLog) => void, timeoutMs: number): Transport {
  return new (clientRuntime().Transport)({ onRequest, timeoutMs });
}

/**
 * The platform clients as src/ui outside the model holds them: the agents family is reached through the profile's
 * `AgentsModel`, which makes every read it keeps and every write (dependency-cruiser's `ui-clients-through-model`
 * keeps src/client/agents.ts and `agentsClientOf` to src/ui/model/).
 */
export type UiClients = Omit<PlatformClients, 'agents' | 'alerts'>;

/**
 * The platform clients of one profile with one set of credentials: each client is made on first use and
 * kept, and so is the client context they share. The connection owns one for the active profile and makes
 * a new one when the profile or its settings change, so nothing made for one profile serves another.
 */
export class PlatformClients {
  private ctx: ClientContext | undefined;
  private agentsClient: AgentsClient | undefined;
  private alertsClient: AlertsClient | undefined;
  private conversationsClient: ConversationsClient | undefined;
  private chatClient: ChatClient | undefined;
  private concurrencyClient: ConcurrencyClient | undefined;
  private messagingClient: MessagingClient | undefined;
  private outboundClient: OutboundClient | undefined;
  private dniClient: DniClient | undefined;
  private externalEventsClient: ExternalEventsClient | undefined;

  constructor(
    readonly profile: ConnectionProfile,
    private readonly credentials: CredentialSource,
    private readonly transport: () => Transport,
  ) {}

  /** The client context (profile, credentials, transport) every client of this profile uses. */
  get context(): ClientContext {
    // Each request is marked with the profile's name, so the log says which profile it was made for.
    this.ctx ??= new (clientRuntime().ClientContext)(
      this.profile,
      this.credentials,
      clientRuntime().transportFor(this.transport(), this.profile.name),
    );
    return this.ctx;
  }

  get agents(): AgentsClient {
    return (this.agentsClient ??= new (clientRuntime().AgentsClient)(this.context));
  }

  get alerts(): AlertsClient {
    return (this.alertsClient ??= new (clientRuntime().AlertsClient)(this.context));
  }

  get conversations(): ConversationsClient {
    return (this.conversationsClient ??= new (clientRuntime().ConversationsClient)(this.context));
  }

  get chat(): ChatClient {
    return (this.chatClient ??= new (clientRuntime().ChatClient)(this.context));
  }

  get concurrency(): ConcurrencyClient {
    return (this.concurrencyClient ??= new (clientRuntime().ConcurrencyClient)(this.context));
  }

  get messaging(): MessagingClient {
    return (this.messagingClient ??= new (clientRuntime().MessagingClient)(this.context));
  }

  get outbound(): OutboundClient {
    return (this.outboundClient ??= new (clientRuntime().OutboundClient)(this.context));
  }

  get dni(): DniClient {
    return (this.dniClient ??= new (clientRuntime().DniClient)(this.context));
  }

  get externalEvents(): ExternalEventsClient {
    return (this.externalEventsClient ??= new (clientRuntime().ExternalEventsClient)(this.context));
  }

  /** One small call to each API family of the profile, telling which work (Test Connection). */
  probe(signal?: AbortSignal): Promise<ProbeResult[]> {
    return clientRuntime().probeConnection(this.context, signal);
  }
}
