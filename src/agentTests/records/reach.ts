import { isEnvironment } from '../../contract/environments';
import type { RecordLister, RecordReach } from './fetch';

/**
 * The records of a target's conversations, read through its Conversations API client (whose key comes from the
 * connection profile, or the command line's environment variable), in the environment the target runs against.
 */
export function recordReach(lister: RecordLister, environment: string): RecordReach {
  return isEnvironment(environment)
    ? { lister, environment }
    : { none: `${environment} is not an environment the Conversations API knows (sandbox, pre-release, live)` };
}
