import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { AGENT_MANIFEST, parseAgentManifest } from './agentManifest';

/**
 * The agent a conversation test file's cases reach when neither they nor the file name one: the agent of the agent
 * folder the file's folder is in (`<agent folder>/tests/<file>.yaml`, by the agent.json beside `tests/`); undefined
 * when that folder is no agent folder. The Testing view, the assistant tools and the command line all ask this.
 */
export function folderAgentOf(testFile: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(path.dirname(path.dirname(testFile)), AGENT_MANIFEST), 'utf8');
  } catch {
    return undefined;
  }
  return parseAgentManifest(text)?.agentId;
}
