import { checkJsonSchema } from '../../core/jsonSchema';
import realtimeSchema from '../../../media/schemas/realtime-config.schema.json';
import type { Finding } from '../problem';
import type { FileRule } from '../rule';

/** Where a top-level variable's key is in the text, to point at it. */
function keyOffset(text: string, name: string): number {
  const i = text.indexOf(JSON.stringify(name));
  return i === -1 ? 0 : i;
}

function valueAt(json: unknown, name: string): unknown {
  return typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[name] : undefined;
}

/**
 * What the platform takes as the variables of a real-time config: one object, each value a runtime value but
 * null (a null removes the variable on the platform, so it cannot stay in the file). The schema is the one the
 * extension gives the JSON editor (media/schemas/realtime-config.schema.json), so both always agree.
 */
export const realtimeVariables: FileRule = {
  id: 'realtime-variables',
  severity: 'error',
  summary: "a real-time config file whose values do not fit the variables' JSON Schema",
  scope: 'file',
  check(file) {
    if (file.kind !== 'realtime' || file.unreadable) return [];
    return checkJsonSchema(realtimeSchema, file.json).map((v): Finding => {
      const name = v.path.split(/[.[]/)[0] ?? '';
      const start = name ? keyOffset(file.text, name) : 0;
      const end = name ? start + JSON.stringify(name).length : Math.max(0, file.text.indexOf('\n'));
      return {
        path: file.path,
        start,
        end: end < 0 ? file.text.length : end,
        message: v.path
          ? `"${v.path}" ${v.message}${valueAt(file.json, name) === null ? ' (remove the key to remove the variable)' : ''}`
          : `A real-time config file holds one JSON object of variables: this one ${v.message}`,
      };
    });
  },
};
