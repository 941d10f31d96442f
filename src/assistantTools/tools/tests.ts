import { isJudged, type TestCase } from '../../agentTests/format';
import { failureNote } from '../../agentTests/perturb/turns';
import { caseLine, criterionLines, summaryLine } from '../../agentTests/report';
import { type CaseResult, runCases } from '../../agentTests/runner';
import { clip } from '../output';
import { defineTool } from '../tool';
import { lines } from './common';
import { TARGET_PROPERTY, targetOf } from './chat';

/** Cases one call runs, at most: a run is real conversations, and its answer must fit. */
export const MAX_CASES = 50;

interface TestsInput {
  paths?: string[];
  cases?: string[];
  tags?: string[];
  target?: string;
  repeat?: number;
}

/** The cases the input names: by name (a part of it, any case) and by tag; all without either. */
export function selectCases(all: readonly TestCase[], names?: readonly string[], tags?: readonly string[]): TestCase[] {
  return all.filter(
    (c) =>
      (!names?.length || names.some((n) => c.name.toLowerCase().includes(n.toLowerCase()))) &&
      (!tags?.length || tags.some((t) => c.tags.includes(t))),
  );
}

/** A result as the answer shows it: its line, and per failing run each failed check as expected against actual. */
export function resultLines(r: CaseResult): string[] {
  const out = [caseLine(r)];
  for (const run of r.runs) {
    if (run.passed || run.cancelled) continue;
    const prefix = r.runs.length > 1 ? `run ${run.attempt}, ` : '';
    if (run.conversationId) out.push(`    ${prefix}conversation ${run.conversationId}`);
    for (const turn of run.turns)
      for (const f of turn.failures)
        out.push(
          `    ${prefix}turn ${turn.index + 1} (line ${turn.range.startLine + 1}), ${f.check}: ${f.message}${failureNote(turn)}`,
          `      expected: ${clip(f.expected, 300)}`,
          `      actual:   ${clip(f.actual, 300)}`,
        );
    if (run.error) out.push(`    ${prefix}${run.error}`);
  }
  // The judged criteria of every run, passed or not: verdict, reason and quotes, or why not judged.
  for (const line of criterionLines(r)) out.push(`    ${clip(line, 500)}`);
  return out;
}

export const runTestsTool = defineTool<TestsInput>({
  name: 'agentWorkbench_runConversationTests',
  title: 'Run conversation tests',
  description:
    "Runs the agent's conversation tests (tests/*.yaml in agent folders: each case a scripted conversation whose answers are checked) through the Chat API on the local platform or an environment with a Chat key. Returns each case passed, failed or skipped and, for a failing turn, each check that failed with the expected text against the agent's actual answer, and the conversation id to read with agentWorkbench_transcript. Run it after a change to check the agent still answers as it should.",
  kind: 'act',
  inputSchema: {
    type: 'object',
    properties: {
      paths: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'Test files or folders (default: every agent folder of the workspace).',
      },
      cases: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'Only the cases whose name contains one of these (any case).',
      },
      tags: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'Only the cases with one of these tags.',
      },
      target: TARGET_PROPERTY,
      repeat: {
        type: 'integer',
        minimum: 1,
        maximum: 5,
        description: "Run each case this many times instead of its own repeat (to see whether it's flaky).",
      },
    },
    additionalProperties: false,
  },
  async invoke(input, context, signal) {
    const target = targetOf(context, input.target);
    const files = await context.testFiles(input.paths ?? [], signal);
    const problems = files.flatMap((f) =>
      f.problems.map(
        (p) => `  ${f.path}:${p.range.startLine + 1}:${p.range.startCharacter + 1} ${p.severity}: ${p.message}`,
      ),
    );
    const all = files.flatMap((f) => f.cases);
    const cases = selectCases(all, input.cases, input.tags);
    if (cases.length === 0)
      return lines(
        files.length === 0
          ? 'No conversation test files were found (tests/*.yaml in an agent folder).'
          : `None of the ${all.length} case(s) in ${files.length} file(s) match the names or tags given.`,
        problems.length > 0 && 'Problems in the test files:',
        problems,
      );
    if (cases.length > MAX_CASES)
      throw new Error(
        `${cases.length} cases match; one run takes at most ${MAX_CASES}. Name cases, tags or paths to run fewer.`,
      );
    // Judged criteria and simulated callers through the model the person set, as the Testing view and `test` do.
    const judged = cases.filter(isJudged);
    const model = judged.length > 0 ? await context.testModel(judged, signal) : undefined;
    let results: CaseResult[];
    let finished: string | undefined;
    try {
      results = await runCases(cases, {
        target: (c) =>
          context.chat({
            target,
            ...(c.agent !== undefined ? { agentId: c.agent } : {}),
            ...(c.environment !== undefined ? { environment: c.environment } : {}),
          }),
        concurrency: 4,
        ...(model ? { model: model.run } : {}),
        ...(input.repeat !== undefined ? { repeat: input.repeat } : {}),
        ...(signal ? { signal } : {}),
      });
    } finally {
      finished = await model?.finish?.();
    }
    return lines(
      `Conversation tests on ${target}:`,
      model?.said,
      results.flatMap(resultLines),
      finished,
      problems.length > 0 && 'Problems in the test files:',
      problems,
      summaryLine(results),
    );
  },
});
