import { DEFAULT_OPTIONS, type LintOptions } from './rule';
import { SEVERITY_SETTINGS, type SeveritySetting } from './problem';
import { ruleById } from './rules';

/** The workspace file both the editor and the command line read, found in the agent folder or above it. */
export const LINT_CONFIG_FILE = '.agent-workbench/lint.json';

/** A rule's severity set by the lint file or a setting, and the numbers of the rules. */
export interface LintConfig {
  rules: Record<string, SeveritySetting>;
  options: LintOptions;
}

export const DEFAULT_CONFIG: LintConfig = { rules: {}, options: DEFAULT_OPTIONS };

/** Severities of rules by id, kept only where the id and the severity are known; the rest is said in `problems`. */
export function readSeverities(value: unknown, where: string, problems: string[]): Record<string, SeveritySetting> {
  const out: Record<string, SeveritySetting> = {};
  if (value === undefined) return out;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${where} must be an object of rule ids and severities`);
    return out;
  }
  for (const [id, severity] of Object.entries(value)) {
    if (!ruleById(id)) problems.push(`${where}: "${id}" is not a rule`);
    else if (!SEVERITY_SETTINGS.includes(severity as SeveritySetting))
      problems.push(`${where}: "${id}" must be one of ${SEVERITY_SETTINGS.join(', ')}`);
    else out[id] = severity as SeveritySetting;
  }
  return out;
}

function readOptions(value: unknown, problems: string[]): LintOptions {
  const options = { ...DEFAULT_OPTIONS };
  if (value === undefined) return options;
  if (typeof value !== 'object' || value === null) {
    problems.push('"options" must be an object');
    return options;
  }
  const v = value as Record<string, unknown>;
  if (v.behaviorBudget !== undefined) {
    if (typeof v.behaviorBudget === 'number' && v.behaviorBudget > 0) options.behaviorBudget = v.behaviorBudget;
    else problems.push('"options.behaviorBudget" must be a positive number of characters');
  }
  if (v.nearDuplicateSimilarity !== undefined) {
    const s = v.nearDuplicateSimilarity;
    if (typeof s === 'number' && s > 0 && s <= 1) options.nearDuplicateSimilarity = s;
    else problems.push('"options.nearDuplicateSimilarity" must be a number above 0, at most 1');
  }
  return options;
}

/**
 * Reads the lint file: `{"rules": {"<id>": "error" | "warning" | "info" | "off"}, "options": {...}}`. A file that
 * does not parse, or a rule or severity that does not exist, is said in `problems` and left out, never thrown.
 */
export function parseLintConfig(text: string): { config: LintConfig; problems: string[] } {
  const problems: string[] = [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { config: DEFAULT_CONFIG, problems: [`${LINT_CONFIG_FILE} is not valid JSON: ${(err as Error).message}`] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { config: DEFAULT_CONFIG, problems: [`${LINT_CONFIG_FILE} must hold one JSON object`] };
  const v = value as Record<string, unknown>;
  return {
    config: {
      rules: readSeverities(v.rules, `${LINT_CONFIG_FILE} "rules"`, problems),
      options: readOptions(v.options, problems),
    },
    problems,
  };
}

/** The lint file's severities with a setting's on top (the setting is the person's own, for this editor). */
export function withSeverities(config: LintConfig, overrides: Record<string, SeveritySetting>): LintConfig {
  return { ...config, rules: { ...config.rules, ...overrides } };
}
