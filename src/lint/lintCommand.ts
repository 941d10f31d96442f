import { writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseCommandLine } from '../core/commandLine';
import { LintSession } from './engine';
import { findAgentFolders, readAgentFolder, readLintConfig } from './nodeFolder';
import { type ReportedProblem, sarifLog } from './sarif';

const HELP = `Agent Workbench lint: the editor's checks of agent folders, for CI.

Usage: node dist/cli.js lint [folder] [--sarif FILE] [--credential-env NAME ...]

  folder               an agent folder (with agent.json), or a folder holding agent folders (default: .)
  --sarif FILE         also write the problems as SARIF 2.1.0 to FILE
  --credential-env NAME  an environment variable holding a credential whose value must not appear in any file
                       (repeatable; AGENT_WORKBENCH_*_KEY, *_TOKEN and *_SECRET variables are always checked)

Prints one line per problem, "file:line:col severity rule-id message", and a summary last. Severities come from
the nearest .agent-workbench/lint.json. Exits 1 when an error remains, 2 on a usage error, else 0.
`;

/** Credential values from the environment: the named variables, and every AGENT_WORKBENCH_ key, token or secret. */
function credentialsFromEnv(names: readonly string[]): string[] {
  const own = Object.keys(process.env).filter((n) => /^AGENT_WORKBENCH_\w*(KEY|TOKEN|SECRET)$/.test(n));
  return [...new Set([...names, ...own])].map((n) => process.env[n] ?? '').filter((v) => v !== '');
}

const slash = (p: string): string => p.split(sep).join('/');

/** `lint`: resolves to the exit code. */
export async function lint(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine({
      args,
      allowPositionals: true,
      options: {
        sarif: { type: 'string' },
        'credential-env': { type: 'string', multiple: true, default: [] },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (parsed.positionals.length > 1) {
    process.stderr.write(`lint takes one folder, got ${parsed.positionals.length}\n\n${HELP}`);
    return 2;
  }
  const root = resolve(parsed.positionals[0] ?? '.');
  const folders = await findAgentFolders(root);
  if (folders.length === 0) {
    process.stderr.write(`No agent folder (a folder with agent.json) at or below ${root}\n`);
    return 2;
  }
  const credentials = credentialsFromEnv(parsed.values['credential-env']);
  const reported: Array<ReportedProblem & { folder: string }> = [];
  for (const folder of folders) {
    const { config, problems: configProblems, file } = await readLintConfig(folder);
    for (const p of configProblems) process.stderr.write(`${file ?? ''}: ${p}\n`);
    const problems = new LintSession().lint(await readAgentFolder(folder), config, credentials);
    for (const problem of problems)
      reported.push({ folder, file: slash(relative(process.cwd(), join(folder, problem.path))), problem });
  }
  for (const { file, problem } of reported) {
    const { line, character } = problem.range.start;
    process.stdout.write(
      `${file}:${line + 1}:${character + 1} ${problem.severity} ${problem.ruleId} ${problem.message}\n`,
    );
  }
  const count = (s: string) => reported.filter((r) => r.problem.severity === s).length;
  const errors = count('error');
  process.stdout.write(
    `${errors} error(s), ${count('warning')} warning(s), ${count('info')} info in ${folders.length} agent folder(s)\n`,
  );
  if (parsed.values.sarif !== undefined) {
    const fileOf = (rp: { folder: string }, path: string) => encodeURI(slash(relative(root, join(rp.folder, path))));
    const log = sarifLog(reported, fileOf, pathToFileURL(`${root}${sep}`).href, '0.1.0');
    await writeFile(parsed.values.sarif, `${JSON.stringify(log, null, 2)}\n`);
  }
  return errors > 0 ? 1 : 0;
}
