import { DEFAULT_CONFIG, type LintConfig } from '../../../src/lint/config';
import { LintSession } from '../../../src/lint/engine';
import type { Problem } from '../../../src/lint/problem';

export const MANIFEST =
  '{\n  "agentId": "ag_support",\n  "name": "Support Desk",\n  "profile": "local",\n  "branch": { "branchId": "br_main", "name": "main" }\n}\n';

export const topic = (name: string, content: string): string => `---\nname: ${name}\n---\n\n${content}\n`;

/** Problems of a folder of these files (agent.json added unless given), with the default severities. */
export function lintFiles(
  files: Record<string, string>,
  config: LintConfig = DEFAULT_CONFIG,
  credentials: readonly string[] = [],
): Problem[] {
  const all = { 'agent.json': MANIFEST, ...files };
  return new LintSession().lint(
    Object.entries(all).map(([path, text]) => ({ path, text })),
    config,
    credentials,
  );
}
