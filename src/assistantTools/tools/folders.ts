import type { FileState, FileStatus } from '../../workspace/status';
import { failureText } from '../failure';
import { pageOf } from '../output';
import { defineTool } from '../tool';
import { FOLDER_PROPERTY, limitProperty, lines, OFFSET_PROPERTY, resolveFolder } from './common';

const STATE_WORDS: Record<FileState, string> = {
  unchanged: 'unchanged',
  modifiedLocally: 'edited here, not pushed',
  added: 'added here, not pushed',
  deleted: 'deleted here, not pushed',
  modifiedRemotely: 'changed on the platform, not pulled',
  conflict: 'conflict (changed on both sides)',
};

/** The changed files of a status, one line each, at most `max`. */
export function statusLines(status: readonly FileStatus[], max = 20): string[] {
  const changed = status.filter((s) => s.state !== 'unchanged');
  const out = changed
    .slice(0, max)
    .map((s) => `  ${s.path}: ${STATE_WORDS[s.state]}${s.problem ? ` (${s.problem})` : ''}`);
  if (changed.length > max) out.push(`  … and ${changed.length - max} more changed files`);
  return out;
}

function syncSummary(status: readonly FileStatus[], remote: boolean): string {
  const count = (states: FileState[]) => status.filter((s) => states.includes(s.state)).length;
  const toPush = count(['modifiedLocally', 'added', 'deleted']);
  const toPull = count(['modifiedRemotely']);
  const conflicts = count(['conflict']);
  if (toPush + toPull + conflicts === 0)
    return remote ? 'in sync with the platform' : 'no local edits (the platform was not read)';
  return [
    toPush ? `${toPush} to push` : '',
    toPull ? `${toPull} to pull` : '',
    conflicts ? `${conflicts} in conflict` : '',
    remote ? '' : '(the platform was not read)',
  ]
    .filter(Boolean)
    .join(', ');
}

export const agentFoldersTool = defineTool<{ remote?: boolean; offset?: number; limit?: number }>({
  name: 'agentWorkbench_agentFolders',
  title: 'Agent folders and their sync state',
  description:
    'Lists the agent folders of the workspace (folders with agent.json that mirror an agent branch as files: behavior.md, knowledge/*.md, realtime/*.json) with the agent, the branch, and the sync state of each: files edited here and not pushed, files changed on the platform and not pulled, conflicts. Use it first to learn which agents and branches the workspace holds.',
  kind: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      remote: {
        type: 'boolean',
        description: 'Also read the platform to find changes made there (default true; false reads only the files).',
      },
      offset: OFFSET_PROPERTY,
      limit: limitProperty(20, 10),
    },
    additionalProperties: false,
  },
  async invoke(input, context, signal) {
    const folders = await context.agentFolders(signal);
    if (folders.length === 0)
      return 'The workspace has no agent folder (a folder with agent.json). Check an agent out into a folder first (Agent Workbench: Check Out into Workspace Folder).';
    const { shown, note } = pageOf(folders, input.offset ?? 0, input.limit ?? 10, 'folders');
    const remote = input.remote ?? true;
    const blocks: string[] = [];
    for (const f of shown) {
      const m = f.manifest;
      const head = `${f.label}: agent ${m.name} (${m.agentId}), branch ${m.branch.name} (${m.branch.branchId}), profile ${m.profile}`;
      if (!f.sameConnection) {
        blocks.push(
          `${head}\n  checked out with another connection profile than ${context.connectionName}: its state is not read here.`,
        );
        continue;
      }
      let status: readonly FileStatus[];
      let readRemote = remote;
      let unread: string | undefined;
      try {
        try {
          status = await context.folderStatus(f.path, remote, signal);
        } catch (err) {
          if (!remote) throw err;
          // The platform's side may be unreadable (an endpoint the spec does not show): the files still say much.
          unread = failureText(err, 'read');
          status = await context.folderStatus(f.path, false, signal);
          readRemote = false;
        }
      } catch (err) {
        blocks.push(`${head}\n  state could not be read: ${failureText(err, 'read')}`);
        continue;
      }
      blocks.push(
        lines(
          `${head}\n  state: ${syncSummary(status, readRemote)}`,
          unread && `  the platform's side could not be read: ${unread}`,
          statusLines(status),
        ),
      );
    }
    return lines(`Agent folders of the workspace (connection: ${context.connectionName}):`, blocks.join('\n'), note);
  },
});

export const checkAgentFolderTool = defineTool<{ folder?: string; offset?: number; limit?: number }>({
  name: 'agentWorkbench_checkAgentFolder',
  title: 'Check an agent folder',
  description:
    "Runs Agent Workbench's checks (the diagnostics shown in the editor's Problems view) on one agent folder: its behavior, knowledge topics, real-time configs and conversation tests, for problems such as empty or duplicate topics, broken front matter, invalid variables, or a credential written into a file. Returns each problem with file, line, severity, rule id and message. Run it after editing files and before pushing.",
  kind: 'act',
  inputSchema: {
    type: 'object',
    properties: { folder: FOLDER_PROPERTY, offset: OFFSET_PROPERTY, limit: limitProperty(200, 50) },
    additionalProperties: false,
  },
  async invoke(input, context, signal) {
    const folder = await resolveFolder(context, input.folder, signal);
    const problems = await context.diagnostics(folder.path, signal);
    const count = (s: string) => problems.filter((p) => p.severity === s).length;
    const summary = `${count('error')} error(s), ${count('warning')} warning(s), ${count('info')} info in ${folder.label}`;
    if (problems.length === 0) return `No problems in ${folder.label} (agent ${folder.manifest.name}).`;
    const { shown, note } = pageOf(problems, input.offset ?? 0, input.limit ?? 50, 'problems');
    return lines(
      shown.map(
        (p) =>
          `${p.path}:${p.range.start.line + 1}:${p.range.start.character + 1} ${p.severity} ${p.ruleId} ${p.message}${p.fix ? ` (quick fix: ${p.fix.title})` : ''}`,
      ),
      note,
      summary,
    );
  },
});
