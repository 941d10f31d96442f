import { REALTIME_CONFIG_NAME_PATTERN } from '../../contract/agentLimits';
import { configOfPath, KNOWLEDGE_DIR, REALTIME_DIR } from '../../workspace/layout';
import type { FileRule } from '../rule';

/** A file that cannot be read as what its place says: binary, invalid UTF-8, huge, broken JSON or front matter. */
export const fileUnreadable: FileRule = {
  id: 'file-unreadable',
  severity: 'error',
  summary: 'a file of the agent cannot be read: binary, invalid UTF-8, too large, or JSON or YAML that does not parse',
  scope: 'file',
  check(file) {
    // Files Push ignores are reported as ignored: what they hold does not reach the agent.
    if (!file.unreadable || file.kind === 'other') return [];
    const { message, start, end, json } = file.unreadable;
    const text = `${file.path} cannot be checked: ${message.replace(/:$/, '')}`;
    return [{ path: file.path, start, end, message: text, ...(json ? { jsonSyntax: true as const } : {}) }];
  },
};

/**
 * Files of the folder that are not the agent's and that nobody needs to be told about: its manifest, what the
 * workbench and git keep, and its conversation tests (tests/*.yaml, as Save as Test writes them).
 */
const OWN_FILES =
  /^(?:agent\.json|\.workbench\/.*|\.agent-workbench\/.*|\.git\/.*|\.gitignore|\.gitattributes|\.DS_Store|tests\/[^/]+\.ya?ml)$/;

/** What Push sends: behavior.md, knowledge/<name>.md and realtime/<config>.json; nothing else goes out. */
export const fileIgnoredByPush: FileRule = {
  id: 'file-ignored-by-push',
  severity: 'warning',
  summary: 'a file under the agent folder that Push does not send',
  scope: 'file',
  check(file) {
    if (file.kind !== 'other' || OWN_FILES.test(file.path)) return [];
    let hint = 'Push sends only behavior.md, knowledge/<topic>.md and realtime/<config>.json';
    if (file.path.startsWith(`${KNOWLEDGE_DIR}/`))
      hint = file.path.slice(KNOWLEDGE_DIR.length + 1).includes('/')
        ? 'topics are the .md files directly in knowledge/, not in folders below it'
        : 'a topic is a Markdown file: rename it to end in .md';
    else if (file.path.startsWith(`${REALTIME_DIR}/`))
      hint = 'a real-time config is a .json file directly in realtime/';
    return [{ path: file.path, start: 0, end: 0, message: `Push ignores ${file.path}: ${hint}` }];
  },
};

/** A real-time config file whose name the platform cannot hold as a config (the path segment {config}). */
export const fileNameRefused: FileRule = {
  id: 'file-name-refused',
  severity: 'error',
  summary: 'a file whose name the platform cannot hold (a real-time config name)',
  scope: 'file',
  check(file) {
    if (file.kind !== 'realtime') return [];
    const config = configOfPath(file.path);
    if (REALTIME_CONFIG_NAME_PATTERN.test(config)) return [];
    return [
      {
        path: file.path,
        start: 0,
        end: 0,
        message: `"${config}" cannot be a real-time config name: letters, digits, "_" and "-", starting with a letter or digit, at most 64; Push would be refused`,
      },
    ];
  },
};
