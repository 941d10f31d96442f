import type { ConnectionProfile } from '../../../client/profile';
import { type IDisposable, NONE } from '../../../core/disposable';
import type { Connection } from '../../connection/connection';

/** What a chat does when the local platform under it stops, and when it runs again. */
export interface LocalPlatformTurns {
  stopped(): void;
  running(): void;
}

/**
 * Follows the local platform under a chat whose profile is one of its profiles (the Local profile, or one of its
 * projects'). The platform stopping is not a fault of the profile's addresses: the chat is told which it is, and
 * when the platform runs again (Start Local Platform) the chat can start anew by itself.
 */
export function followLocalPlatform(
  connection: Connection,
  profile: ConnectionProfile | undefined,
  turns: LocalPlatformTurns,
): IDisposable {
  if (profile?.region !== 'local') return NONE;
  let attached = connection.localAttached;
  return connection.profiles.onDidChange(() => {
    const now = connection.localAttached;
    if (now === attached) return;
    attached = now;
    if (now) turns.running();
    else turns.stopped();
  });
}

/**
 * The profile of a local project a chat was opened with, made again for the local platform now running (its
 * profiles of other projects go when it stops); the Local profile is made by the platform itself.
 */
export async function localProfileAgain(
  connection: Connection,
  profile: ConnectionProfile,
): Promise<ConnectionProfile | undefined> {
  const there = connection.profiles.get(profile.id);
  if (there) return there;
  const project = connection.localProjects.find((p) => p.projectId === profile.projectId);
  return project && connection.localProjectProfile(project);
}
