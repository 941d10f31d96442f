import type { PushAction } from '../../workspace/pushPlan';
import type { FileStatus } from '../../workspace/status';
import type { AgentFolder, ToolContext } from '../context';
import { failureText } from '../failure';
import { defineTool, type Words } from '../tool';
import { FOLDER_PROPERTY, lines, resolveFolder } from './common';
import { statusLines } from './folders';

const FOLDER_ONLY = {
  type: 'object',
  properties: { folder: FOLDER_PROPERTY },
  additionalProperties: false,
} as const;

/** The folder of a sync tool: one of this connection, or what to do. */
async function syncFolder(context: ToolContext, named: string | undefined, signal?: AbortSignal): Promise<AgentFolder> {
  const folder = await resolveFolder(context, named, signal);
  if (!folder.sameConnection)
    throw new Error(
      `${folder.label} was checked out with the connection profile "${folder.manifest.profile}", not ${context.connectionName}: switch to that profile first.`,
    );
  return folder;
}

/** The files a status would send (push) or take (pull). */
const isLocalEdit = (s: FileStatus) => ['modifiedLocally', 'added', 'deleted'].includes(s.state);
const isRemoteChange = (s: FileStatus) => s.state === 'modifiedRemotely' || s.state === 'conflict';

function where(folder: AgentFolder): string {
  return `${folder.label} (agent ${folder.manifest.name} ${folder.manifest.agentId}, branch ${folder.manifest.branch.name})`;
}

export const pullTool = defineTool<{ folder?: string }>({
  name: 'agentWorkbench_pull',
  title: 'Pull an agent folder',
  description:
    "Pulls the platform's changes of the folder's agent branch into the agent folder (behavior, knowledge topics, real-time configs). Local edits are kept: a file changed on both sides is merged, or left as it is and reported as a conflict to settle in the editor. Changes files in the workspace; asks the person first.",
  kind: 'change',
  inputSchema: FOLDER_ONLY,
  async describe(input, context, words: Words, signal) {
    const folder = await syncFolder(context, input.folder, signal);
    let detail: string;
    try {
      const status = await context.folderStatus(folder.path, true, signal);
      const incoming = status.filter(isRemoteChange);
      detail =
        incoming.length === 0
          ? words.t('The platform has no changes for these files now; the pull only records that.')
          : words.t('Files that will change:\n{0}', statusLines(incoming).join('\n'));
    } catch (err) {
      detail = words.t('The platform could not be read to list the changes: {0}', failureText(err, 'read'));
    }
    return {
      title: words.t('Pull {0}', folder.label),
      message: words.t(
        "Pull the platform's changes of branch {0} of agent {1} into {2}. Edits not pushed are kept; what cannot be merged is listed as a conflict.\n{3}",
        folder.manifest.branch.name,
        folder.manifest.name,
        folder.label,
        detail,
      ),
      live: false,
    };
  },
  async invoke(input, context, signal) {
    const folder = await syncFolder(context, input.folder, signal);
    const report = await context.pull(folder.path, signal);
    return lines(
      report.actions.length === 0
        ? `Pulled ${where(folder)}: no file changed.`
        : `Pulled ${where(folder)}: ${report.actions.length} file(s) changed.`,
      report.actions
        .slice(0, 30)
        .map((a) =>
          a.kind === 'remove'
            ? `  removed ${a.path}`
            : `  ${a.why === 'merged' ? 'merged with your edits' : 'updated'} ${a.path}`,
        ),
      report.conflicts.length > 0 &&
        `${report.conflicts.length} conflict(s), left as they are for the person to settle (Open File Merge in Source Control): ${report.conflicts.map((c) => c.path).join(', ')}`,
    );
  },
});

function actionLine(a: PushAction): string {
  switch (a.kind) {
    case 'behavior':
      return `  ${a.path}: the behavior`;
    case 'createTopic':
      return `  ${a.path}: a new topic "${a.name}"`;
    case 'updateTopic':
      return `  ${a.path}: topic ${a.topicId} (${Object.keys(a.change).join(' and ')})`;
    case 'deleteTopic':
      return `  ${a.path}: topic ${a.topicId} deleted`;
    case 'variables':
      return `  ${a.path}: variables of the real-time config ${a.config} (${Object.keys(a.variables).join(', ')})`;
  }
}

export const pushTool = defineTool<{ folder?: string }>({
  name: 'agentWorkbench_push',
  title: 'Push an agent folder',
  description:
    "Pushes the agent folder's edits (behavior.md, knowledge/*.md, realtime/*.json) to its agent branch on the platform, sending only what changed. Nothing is sent when a file to push was also changed on the platform since the last pull: pull first. Real-time config variables take effect at once, without publishing. Asks the person first.",
  kind: 'change',
  inputSchema: FOLDER_ONLY,
  async describe(input, context, words, signal) {
    const folder = await syncFolder(context, input.folder, signal);
    const status = await context.folderStatus(folder.path, false, signal);
    const outgoing = status.filter(isLocalEdit);
    const deleted = outgoing.filter((s) => s.state === 'deleted' && s.key.startsWith('topic:')).length;
    const realtime = outgoing.filter((s) => s.key.startsWith('realtime:')).length;
    return {
      title: words.t('Push {0}', folder.label),
      message: lines(
        words.t(
          'Push to branch {0} of agent {1} from {2}.',
          folder.manifest.branch.name,
          folder.manifest.name,
          folder.label,
        ),
        outgoing.length === 0
          ? words.t('No file has edits to push now.')
          : words.t('Files that will be sent:\n{0}', statusLines(outgoing).join('\n')),
        deleted > 0 && words.t('{0} topic(s) will be deleted on the platform.', deleted),
        realtime > 0 &&
          words.t(
            '{0} real-time config(s) will change: their variables take effect at once, on every environment that uses them, live included.',
            realtime,
          ),
      ),
      live: realtime > 0,
    };
  },
  async invoke(input, context, signal) {
    const folder = await syncFolder(context, input.folder, signal);
    const report = await context.push(folder.path, signal);
    if (report.refused.length > 0)
      return lines(
        `Nothing was pushed from ${where(folder)}:`,
        report.refused.map((r) => `  ${r.path}: ${r.message}`),
        report.refused.some((r) => r.reason === 'remoteChanged') &&
          'Pull first (agentWorkbench_pull), then push again.',
      );
    return lines(
      report.sent.length === 0
        ? `Nothing to push from ${where(folder)}: the platform already has every file.`
        : `Pushed ${where(folder)}: ${report.sent.length} change(s) sent.`,
      report.sent.slice(0, 30).map(actionLine),
      report.sent.length > 0 &&
        'A push changes the branch on the platform, not what an environment serves: that changes by publishing to sandbox (agentWorkbench_publishToSandbox) and promoting.',
    );
  },
});
