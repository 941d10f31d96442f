import { DEFAULT_OPTIONS, type LintOptions } from './rule';
import { type Severity, SEVERITY_SETTINGS, type SeveritySetting } from './problem';
import { ruleById } from './rules';

/** The workspace file both the editor and the command line read, found in the agent folder or above it. */
export const LINT_CONFIG_FILE = '.agent-workbench/lint.json';

/** Severities that apply to some files only: those whose path in the agent folder fits one of `files`. */
export interface LintOverride {
  /** Paths relative to the agent folder, with `*` (within a folder), `**` (across folders) and `?`. */
  files: string[];
  rules: Record<string, SeveritySetting>;
}

/** A rule's severity set by the lint file or a setting, and the numbers of the rules. */
export interface LintConfig {
  rules: Record<string, SeveritySetting>;
  /** Applied in order on top of `rules`, for the files they name (the last that fits a file wins). */
  overrides?: LintOverride[];
  options: LintOptions;
}

export const DEFAULT_CONFIG: LintConfig = { rules: {}, options: DEFAULT_OPTIONS };

/** A path pattern of `overrides` as a regular expression over the whole path. */
export function globPattern(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charAt(i);
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` is any number of folders, none included; `**` alone is anything.
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** The severity of a rule for one file: the file's overrides, else the folder's rules, else the rule's own. */
export function severityFor(config: LintConfig, ruleId: string, path: string, fallback: Severity): SeveritySetting {
  let set: SeveritySetting | undefined = config.rules[ruleId];
  for (const o of config.overrides ?? [])
    if (o.rules[ruleId] !== undefined && o.files.some((f) => globPattern(f).test(path))) set = o.rules[ruleId];
  return set ?? fallback;
}

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

function readOverrides(value: unknown, problems: string[]): LintOverride[] | undefined {
  if (value === undefined) return undefined;
  const where = `${LINT_CONFIG_FILE} "overrides"`;
  if (!Array.isArray(value)) {
    problems.push(`${where} must be a list of {"files": [...], "rules": {...}}`);
    return undefined;
  }
  const out: LintOverride[] = [];
  value.forEach((entry: unknown, i) => {
    const at = `${where}[${i}]`;
    const e = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
    const files = typeof e.files === 'string' ? [e.files] : e.files;
    if (!Array.isArray(files) || files.length === 0 || !files.every((f) => typeof f === 'string' && f !== '')) {
      problems.push(
        `${at} "files" must name the files it applies to, relative to the agent folder (such as "knowledge/contact.md")`,
      );
      return;
    }
    out.push({ files: files as string[], rules: readSeverities(e.rules, `${at} "rules"`, problems) });
  });
  return out;
}

/**
 * Reads the lint file: `{"rules": {"<id>": "error" | "warning" | "info" | "off"}, "overrides": [{"files": [...],
 * "rules": {...}}], "options": {...}}`. A file that does not parse, or a rule or severity that does not exist, is
 * said in `problems` and left out, never thrown.
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
  const overrides = readOverrides(v.overrides, problems);
  return {
    config: {
      rules: readSeverities(v.rules, `${LINT_CONFIG_FILE} "rules"`, problems),
      ...(overrides ? { overrides } : {}),
      options: readOptions(v.options, problems),
    },
    problems,
  };
}

/** The lint file's severities with a setting's on top (the setting is the person's own, for this editor). */
export function withSeverities(config: LintConfig, overrides: Record<string, SeveritySetting>): LintConfig {
  return { ...config, rules: { ...config.rules, ...overrides } };
}
