/**
 * From a parsed frontmatter to a {@link HookManifest}, or to problems that say what is wrong, where, and what would
 * be right.
 *
 * @module
 */
import { basename, dirname } from 'node:path';
import type { z } from 'zod';
import { DIALECT_NAMES, dialectNamed } from '../dialects/registry.js';
import { HookEvent, TOOL_EVENTS, UnknownEventError, type HookEventName } from '../core/index.js';
import { hookFrontmatterSchema, isHookName, normalizeHookName } from './frontmatter-schema.js';
import { HOOK_FRONTMATTER_LIMITS } from './internal/frontmatter-limits.js';
import { safeParseOf } from '../core/internal/zod-module.js';
import { closestName } from './internal/closest-name.js';
import { describeValue } from './internal/describe-value.js';
import { MATCHER_ALLOWED, unknownToolProblem } from './internal/matcher-problems.js';
import type { HookManifest, HookSource, ManifestMatcher } from './manifest.js';
import { javascriptOnlyRegexSyntax } from './manifest-regex.js';
import type { HookProblem } from './problem.js';
import { HOOKMD_TRIGGER_NAMES } from './trigger-names.js';

/**
 * Where a frontmatter came from; only `file` is required.
 *
 * @internal
 */
export interface ManifestLocation {
  /** The HOOK.md file (absolute), named by every problem. */
  readonly file: string;
  /** The hook folder, whose name `name` must equal. Default: the folder of `file`. */
  readonly dir?: string | undefined;
  /** The level the folder was found at. Default `'project'`. */
  readonly source?: HookSource | undefined;
  /** Where the body starts in `file`. Default 0. */
  readonly bodyOffset?: number | undefined;
}

/**
 * The result of validating one frontmatter. `manifest` is set exactly when no problem is an error; warnings may come
 * with a manifest.
 *
 * @internal
 */
export interface ManifestValidation {
  /** The manifest, or `undefined` when an error prevents loading the hook. */
  readonly manifest: HookManifest | undefined;
  /** Every problem found, errors and warnings, in field order. */
  readonly problems: readonly HookProblem[];
}

const { name: NAME, description: DESCRIPTION, timeout: TIMEOUT, priority: PRIORITY } = HOOK_FRONTMATTER_LIMITS;

const TOOL_EVENT_NAMES = [...TOOL_EVENTS].map((event) => HookEvent.toDialect(event, 'hookmd') ?? event).join(', ');

/** The frontmatter's keys, for the message about one it does not have. */
const topKeys = (): string[] => Object.keys(hookFrontmatterSchema().shape);
const MATCHER_KEYS = ['tool', 'pattern'];

const ALLOWED: Readonly<Record<string, string>> = {
  name: `${NAME.min} to ${NAME.max} lowercase letters (of any script), digits and single hyphens, not starting or ending with a hyphen`,
  description: `text of ${DESCRIPTION.min} to ${DESCRIPTION.max} characters`,
  trigger: `a HOOK.md event (${HOOKMD_TRIGGER_NAMES.join(', ')}), or an alias such as before_tool or PreToolUse`,
  matcher: 'a mapping with tool and/or pattern',
  ...MATCHER_ALLOWED,
  timeout: `an integer from ${TIMEOUT.min} to ${TIMEOUT.max} (milliseconds)`,
  async: 'true or false',
  priority: `an integer from ${PRIORITY.min} to ${PRIORITY.max}`,
  metadata: 'a mapping of keys to values',
};

// Keys people write for ours, from other hook formats or by habit; edit distance alone would not find them.
const KEY_HINTS: Readonly<Record<string, string>> = {
  event: 'trigger',
  events: 'trigger',
  on: 'trigger',
  hook: 'trigger',
  when: 'trigger',
  desc: 'description',
  summary: 'description',
  tool: 'matcher.tool',
  tools: 'matcher.tool',
  pattern: 'matcher.pattern',
  order: 'priority',
  background: 'async',
  meta: 'metadata',
};
const MATCHER_HINTS: Readonly<Record<string, string>> = { name: 'tool', input: 'pattern', args: 'pattern', regex: 'pattern' };

/** `table[key]` when `table` has it as its own: a YAML key may be `__proto__`, which every object inherits. */
const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at `path` in `data`, reading own properties only (a YAML key may be `__proto__`). */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let here = data;
  for (const key of path) {
    if (!isRecord(here) || !Object.hasOwn(here, key)) return undefined;
    here = Object.getOwnPropertyDescriptor(here, key)?.value;
  }
  return here;
}

/** A name the pattern accepts, derived from one it rejects, to put in the message. */
const slug = (text: string): string =>
  normalizeHookName(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, NAME.max)
    .replace(/-+$/, '');

/** Why a value of the wrong type is wrong, when YAML is the likely culprit. */
function typeHint(value: unknown, expected: string | undefined): string {
  if (typeof value === 'string' && (expected === 'number' || expected === 'int') && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) {
    return ' Write the number without quotes.';
  }
  if (typeof value === 'string' && expected === 'boolean' && /^(yes|no|on|off|y|n|true|false)$/i.test(value)) {
    return ' Write true or false without quotes (YAML 1.2 reads yes, no, on and off as text).';
  }
  if (value === null) return ' The key has no value: give it one, or remove the key.';
  return '';
}

/** One suggestion per event: three spellings of one event would crowd out a second, likelier event. */
function distinctEvents(names: readonly string[]): string[] {
  const seen = new Set<HookEventName>();
  return names.filter((name) => {
    const event = HookEvent.tryParse(name);
    if (event === undefined || seen.has(event)) return false;
    seen.add(event);
    return true;
  });
}

interface Frame {
  readonly file: string;
  readonly hookName: string | undefined;
  readonly data: Record<string, unknown>;
  readonly folder: string;
}

function problemsOf(complaint: z.core.$ZodIssue, frame: Frame): HookProblem[] {
  const base = { file: frame.file, hookName: frame.hookName, severity: 'error' as const };
  const field = complaint.path.map(String).join('.');
  const value = valueAt(frame.data, complaint.path);
  const found = value === undefined ? undefined : describeValue(value);
  const allowed = own(ALLOWED, field);

  // How zod reports a missing key depends on the field's type (an enum reports an invalid value), so absence is
  // checked first.
  if (value === undefined && complaint.code !== 'unrecognized_keys') {
    const example =
      field === 'name'
        ? `name: ${isHookName(normalizeHookName(frame.folder)) ? frame.folder : 'my-hook'}`
        : field === 'trigger'
          ? 'trigger: pre-tool-call'
          : `${field}: …`;
    return [{ ...base, field, allowed, message: `${field} is required: add a line such as "${example}".`, code: 'missing-field' }];
  }

  switch (complaint.code) {
    case 'unrecognized_keys': {
      const parent = valueAt(frame.data, complaint.path);
      const inMatcher = field === 'matcher';
      return complaint.keys.map((key) => {
        const hint = own(inMatcher ? MATCHER_HINTS : KEY_HINTS, key) ?? closestName(key, inMatcher ? MATCHER_KEYS : topKeys());
        const path = field === '' ? key : `${field}.${key}`;
        const where = inMatcher ? 'a matcher has only tool and pattern' : 'custom data belongs under metadata';
        return {
          ...base,
          field: path,
          found: describeValue(valueAt(parent, [key])),
          allowed: (inMatcher ? MATCHER_KEYS : topKeys()).join(', '),
          message: hint === undefined ? `Unknown key ${path}: ${where}.` : `Unknown key ${path}: did you mean ${hint}?`,
          code: 'unknown-key',
        };
      });
    }
    case 'invalid_type': {
      const notInteger = complaint.expected === 'int' && typeof value === 'number' && Number.isFinite(value);
      return [
        {
          ...base,
          field,
          found,
          allowed,
          message: notInteger
            ? `${field} must be a whole number.`
            : `${field} has the wrong type: it must be ${allowed ?? complaint.expected}.${typeHint(value, complaint.expected)}`,
          code: 'invalid-type',
        },
      ];
    }
    case 'too_small':
    case 'too_big': {
      let message: string;
      if (typeof value === 'string') {
        message = value.length === 0 ? `${field} is empty.` : `${field} is ${value.length} characters long: it must be ${allowed ?? 'shorter'}.`;
      } else {
        message = `${field} is out of range: it must be ${allowed ?? 'within range'}.`;
        // The commonest timeout mistake is giving seconds, as Claude Code and VS Code configs do.
        if (field === 'timeout' && typeof value === 'number' && value > 0 && value < TIMEOUT.min && value * 1000 <= TIMEOUT.max) {
          message += ` The timeout is in milliseconds: for ${value} seconds write ${value * 1000}.`;
        }
      }
      return [{ ...base, field, found, allowed, message, code: 'out-of-range' }];
    }
    case 'invalid_format': {
      const suggestion = typeof value === 'string' ? slug(value) : '';
      return [
        {
          ...base,
          field,
          found,
          allowed,
          message: `${field} may hold only lowercase letters, digits and single hyphens${suggestion === '' ? '' : `, e.g. ${suggestion}`}.`,
          code: 'invalid-name',
        },
      ];
    }
    case 'invalid_value': {
      if (field === 'trigger' && typeof value === 'string') {
        let suggestions: readonly string[] = [];
        try {
          HookEvent.parse(value);
        } catch (error) {
          if (error instanceof UnknownEventError) suggestions = distinctEvents(error.suggestions).slice(0, 3);
        }
        const list = suggestions.join(', ');
        return [
          {
            ...base,
            field,
            found,
            allowed: suggestions.length > 0 ? `did you mean ${list}?` : allowed,
            message:
              suggestions.length > 0
                ? `Unknown trigger ${JSON.stringify(value)}: did you mean ${list}? (Event names are case-sensitive.)`
                : `Unknown trigger ${JSON.stringify(value)}: use a HOOK.md event such as pre-tool-call, or one of its aliases.`,
            code: 'unknown-trigger',
          },
        ];
      }
      return [{ ...base, field, found, allowed, message: `${field} has the wrong type: it must be ${allowed ?? 'a known value'}.`, code: 'invalid-type' }];
    }
    case 'custom': {
      if (complaint.params?.['kind'] === 'uppercase-name' && typeof value === 'string') {
        const lower = slug(value);
        return [{ ...base, field, found, allowed, message: `${field} must be lowercase${lower === '' ? '' : `, e.g. ${lower}`}.`, code: 'invalid-name' }];
      }
      if (complaint.params?.['kind'] === 'blank') {
        return [{ ...base, field, found, allowed, message: `${field} is only white space: say in a sentence what the hook does.`, code: 'out-of-range' }];
      }
      if (complaint.params?.['kind'] === 'invalid-regex') {
        return [{ ...base, field, found, allowed, message: complaint.message, code: 'invalid-regex' }];
      }
      if (complaint.params?.['kind'] === 'unsafe-regex') {
        return [{ ...base, field, found, allowed, message: complaint.message, code: 'unsafe-regex' }];
      }
      return [{ ...base, field, found, allowed, message: complaint.message, code: 'invalid-type' }];
    }
    default:
      return [{ ...base, field: field === '' ? undefined : field, found, allowed, message: complaint.message, code: 'invalid-type' }];
  }
}

/**
 * Validates a parsed frontmatter (`data`, from YAML) against {@link hookFrontmatterSchema} and the rules the schema
 * alone cannot express: the name must equal the folder's, and a matcher on an event that concerns no tool is ignored
 * (with a warning, since the author surely expected it to filter something). Every problem is reported, not just the
 * first, so one pass over a file shows all that needs fixing. Never throws, whatever `data` is.
 *
 * An empty frontmatter (`null`) is read as an empty mapping, so it reports the three missing required fields rather
 * than a type error.
 *
 * @internal
 */
export function validateFrontmatter(data: unknown, location: ManifestLocation): ManifestValidation {
  const file = location.file;
  const dir = location.dir ?? dirname(file);
  const folder = basename(dir);
  if (data === null || data === undefined) data = {};
  if (!isRecord(data)) {
    return {
      manifest: undefined,
      problems: [
        {
          file,
          hookName: folder,
          found: describeValue(data),
          allowed: 'a YAML mapping: name, description, trigger, …',
          message: 'The frontmatter must be a mapping of keys to values, such as "name: my-hook" on its own line.',
          severity: 'error',
          code: 'invalid-type',
        },
      ],
    };
  }
  // The reference validator reads the name NFKC-normalised and trimmed, so " café-hook " is café-hook.
  const written = valueAt(data, ['name']);
  if (typeof written === 'string') data = { ...data, name: normalizeHookName(written) };
  const rawName = valueAt(data, ['name']);
  const hookName = typeof rawName === 'string' && rawName !== '' ? rawName : folder;
  const frame: Frame = { file, hookName, data: data as Record<string, unknown>, folder };

  const parsed = safeParseOf(hookFrontmatterSchema(), data);
  const problems: HookProblem[] = parsed.success ? [] : parsed.error.issues.flatMap((complaint) => problemsOf(complaint, frame));

  if (typeof rawName === 'string' && isHookName(rawName) && rawName.length <= NAME.max && rawName !== folder.normalize('NFKC')) {
    problems.push({
      file,
      hookName,
      field: 'name',
      found: describeValue(rawName),
      allowed: describeValue(folder),
      message: `name is ${JSON.stringify(rawName)} but the folder is ${JSON.stringify(folder)}: they must be equal, so rename one of them.`,
      severity: 'error',
      code: 'name-mismatch',
    });
  }
  // Checked here rather than when the hook is built, so that a hook which cannot run never gets as far as taking the
  // place of the user's hook of the same name.
  const dialect = valueAt(data, ['metadata', 'dialect']);
  if (dialect !== undefined && (typeof dialect !== 'string' || dialectNamed(dialect) === undefined)) {
    problems.push({
      file,
      hookName,
      field: 'metadata.dialect',
      found: describeValue(dialect),
      allowed: DIALECT_NAMES.join(', '),
      message: `metadata.dialect is ${typeof dialect === 'string' ? `'${dialect}'` : describeValue(dialect)}; use one of ${DIALECT_NAMES.join(', ')}, or leave it out for the HOOK.md protocol.`,
      severity: 'error',
      code: 'unknown-dialect',
    });
  }
  if (!parsed.success || problems.length > 0) return { manifest: undefined, problems };

  const fm = parsed.data;
  const trigger: HookEventName = HookEvent.parse(fm.trigger);
  let matcher: ManifestMatcher | undefined =
    fm.matcher !== undefined && (fm.matcher.tool !== undefined || fm.matcher.pattern !== undefined)
      ? Object.freeze({ tool: fm.matcher.tool, pattern: fm.matcher.pattern })
      : undefined;
  if (matcher !== undefined && !HookEvent.isToolEvent(trigger)) {
    problems.push({
      file,
      hookName,
      field: 'matcher',
      found: describeValue(fm.matcher),
      allowed: `a matcher only on a tool event (${TOOL_EVENT_NAMES})`,
      message: `The matcher is ignored: ${fm.trigger} is not a tool event, so the hook runs every time it fires. Remove the matcher, or change the trigger.`,
      severity: 'warning',
      code: 'ignored-matcher',
    });
    matcher = undefined;
  }
  if (matcher?.tool !== undefined) {
    const unknown = unknownToolProblem(matcher.tool, file, hookName);
    if (unknown !== undefined) problems.push(unknown);
  }
  for (const field of ['tool', 'pattern'] as const) {
    const source = matcher?.[field];
    if (source === undefined) continue;
    for (const syntax of javascriptOnlyRegexSyntax(source)) {
      problems.push({
        file,
        hookName,
        field: `matcher.${field}`,
        found: describeValue(source),
        allowed: "a regex in Python's re syntax, which the reference runtime compiles",
        message: `matcher.${field} uses JavaScript-only syntax: ${syntax}. It works here, but the reference runtime will not load this hook.`,
        severity: 'warning',
        code: 'javascript-only-regex',
      });
    }
  }
  const manifest: HookManifest = Object.freeze({
    name: fm.name,
    description: fm.description.trim(),
    trigger,
    triggerName: fm.trigger,
    matcher,
    timeout: fm.timeout,
    async: fm.async,
    priority: fm.priority,
    metadata: Object.freeze({ ...fm.metadata }),
    dir,
    file,
    source: location.source ?? 'project',
    bodyOffset: location.bodyOffset ?? 0,
  });
  return { manifest, problems };
}

/**
 * A warning for a `trigger` written in a name other than the HOOK.md format's current ones (`before_tool`,
 * `PreToolUse`, `preToolUse`): the hook loads here, since the format's older spec used such names and users mix
 * dialects, but the reference runtime refuses it. The warning names the portable name. `undefined` for a current name.
 * Given by `validate` and `list`, not by discovery, which loads such hooks quietly.
 *
 * @internal
 */
export function triggerNameProblem(manifest: Pick<HookManifest, 'name' | 'file' | 'trigger' | 'triggerName'>): HookProblem | undefined {
  const written = manifest.triggerName;
  if (HOOKMD_TRIGGER_NAMES.includes(written)) return undefined;
  const portable = HookEvent.toDialect(manifest.trigger, 'hookmd');
  const what = HookEvent.tryParse(written, 'hookmd-legacy') !== undefined ? 'an older HOOK.md name' : "another agent's name, not a HOOK.md one";
  return {
    file: manifest.file,
    hookName: manifest.name,
    field: 'trigger',
    found: JSON.stringify(written),
    allowed: portable === undefined ? undefined : JSON.stringify(portable),
    message:
      portable === undefined
        ? `trigger ${written} is ${what}, and the HOOK.md format has no name for ${manifest.trigger}: the hook loads here, but the reference runtime will not load it.`
        : `trigger ${written} is ${what}: the hook loads here, but the current format and its reference runtime accept only trigger: ${portable}. Write that for a hook that runs everywhere.`,
    severity: 'warning',
    code: 'non-portable-trigger',
  };
}
