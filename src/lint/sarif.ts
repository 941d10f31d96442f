import type { Problem, Severity } from './problem';
import { RULES } from './rules';

/** Where the rule pages are read: the project's docs/rules/<id>.md. */
export const RULE_DOCS_BASE = 'https://github.com/agent-workbench/agent-workbench/blob/main/docs/rules/';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/** A problem as reported by the command line: its file (as given) and where, from 1. */
export interface ReportedProblem {
  file: string;
  problem: Problem;
}

/** SARIF counts lines and columns from 1. */
const region = (p: Problem['range']) => ({
  startLine: p.start.line + 1,
  startColumn: p.start.character + 1,
  endLine: p.end.line + 1,
  endColumn: p.end.character + 1,
});

/**
 * A SARIF 2.1.0 log of one run (the format code-scanning tools read): every rule with its page, every problem with
 * its place, related places and fix. `fileOf` turns a folder-relative path into the address the log uses.
 */
export function sarifLog<T extends ReportedProblem>(
  reported: readonly T[],
  fileOf: (problem: T, path: string) => string,
  rootUri: string,
  version: string,
): object {
  const index = new Map(RULES.map((r, i) => [r.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Agent Workbench lint',
            informationUri: RULE_DOCS_BASE,
            version,
            rules: RULES.map((r) => ({
              id: r.id,
              shortDescription: { text: r.summary },
              helpUri: `${RULE_DOCS_BASE}${r.id}.md`,
              defaultConfiguration: { level: LEVEL[r.severity] },
            })),
          },
        },
        originalUriBaseIds: { ROOT: { uri: rootUri } },
        results: reported.map((rp) => {
          const { problem } = rp;
          const location = (path: string, range: Problem['range']) => ({
            physicalLocation: { artifactLocation: { uri: fileOf(rp, path), uriBaseId: 'ROOT' }, region: region(range) },
          });
          return {
            ruleId: problem.ruleId,
            ruleIndex: index.get(problem.ruleId) ?? -1,
            level: LEVEL[problem.severity],
            message: { text: problem.message },
            locations: [location(problem.path, problem.range)],
            ...(problem.related.length > 0
              ? {
                  relatedLocations: problem.related.map((r, id) => ({
                    id,
                    ...location(r.path, r.range),
                    message: { text: r.message },
                  })),
                }
              : {}),
            ...(problem.fix
              ? {
                  fixes: [
                    {
                      description: { text: problem.fix.title },
                      artifactChanges: problem.fix.edits.map((e) => ({
                        artifactLocation: { uri: fileOf(rp, e.path), uriBaseId: 'ROOT' },
                        replacements: [{ deletedRegion: region(e.range), insertedContent: { text: e.newText } }],
                      })),
                    },
                  ],
                }
              : {}),
          };
        }),
      },
    ],
  };
}
