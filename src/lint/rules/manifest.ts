import { AGENT_NAME_MAX, AGENT_NAME_MIN } from '../../contract/agentLimits';
import { parseAgentManifest } from '../../workspace/agentManifest';
import type { FileRule } from '../rule';

/** agent.json that Check Out, Pull and Push cannot read: the folder stops being an agent folder. */
export const agentJsonInvalid: FileRule = {
  id: 'agent-json-invalid',
  severity: 'error',
  summary: 'agent.json is not a valid agent manifest',
  scope: 'file',
  check(file) {
    if (file.kind !== 'manifest' || file.unreadable || parseAgentManifest(file.text)) return [];
    return [
      {
        path: file.path,
        start: 0,
        end: Math.min(file.text.length, Math.max(0, file.text.indexOf('\n'))),
        message:
          'agent.json must be an object with "agentId", "profile" and "branch": {"branchId", "name"}; check the agent out again to rewrite it',
      },
    ];
  },
};

const NAME_FIELD = /"name"\s*:\s*("(?:[^"\\]|\\.)*")/;

/** The specification's bound on an agent's name (AGENT-1: 1 to 128 characters). */
export const agentNameLength: FileRule = {
  id: 'agent-name-length',
  severity: 'error',
  summary: `the agent's name is not ${AGENT_NAME_MIN} to ${AGENT_NAME_MAX} characters`,
  scope: 'file',
  check(file) {
    if (file.kind !== 'manifest' || typeof file.json !== 'object' || file.json === null) return [];
    const name = (file.json as Record<string, unknown>).name;
    if (typeof name !== 'string') return [];
    const length = [...name].length;
    if (length >= AGENT_NAME_MIN && length <= AGENT_NAME_MAX && name.trim() !== '') return [];
    const m = NAME_FIELD.exec(file.text);
    const [field, value] = m ?? [];
    const start = m && field !== undefined && value !== undefined ? m.index + field.length - value.length : 0;
    const end = value === undefined ? 0 : start + value.length;
    const trimmed = [...name.trim()].slice(0, AGENT_NAME_MAX).join('').trim();
    return [
      {
        path: file.path,
        start,
        end,
        message: `The agent's name must be ${AGENT_NAME_MIN} to ${AGENT_NAME_MAX} characters; it is ${length}${name.trim() === '' && length > 0 ? ' blank ones' : ''}`,
        ...(m && trimmed !== ''
          ? {
              fix: {
                title: `Trim the name to ${AGENT_NAME_MAX} characters`,
                edits: [{ path: file.path, start, end, newText: JSON.stringify(trimmed) }],
              },
            }
          : {}),
      },
    ];
  },
};
