// The address of a read-only document of what the platform holds now, for the profile the views show: the Agents
// view's documents and Source Control's Remote Changes open the same documents by it.
import * as vscode from 'vscode';
import { remoteDocumentUri, type RemoteRef } from './uris';

type WithoutProfile<T> = T extends unknown ? Omit<T, 'profile'> : never;

/** The profile the trees show (set by the Agents view): a document opened from them is of that profile. */
let shownProfile: () => string | undefined = () => undefined;

/** Tells remoteUri which profile the trees show. */
export function setShownProfile(profile: () => string | undefined): void {
  shownProfile = profile;
}

/** A read-only document of what the platform of the shown profile holds now (behavior, a topic, a config's variables). */
export function remoteUri(ref: WithoutProfile<RemoteRef>): vscode.Uri {
  return vscode.Uri.from(remoteDocumentUri({ ...ref, profile: shownProfile() ?? '' } as RemoteRef));
}
