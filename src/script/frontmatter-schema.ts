/**
 * The shape of a HOOK.md frontmatter, as a zod schema and as a JSON Schema for editors.
 *
 * @module
 */
import type { z } from 'zod';
import { lazyValue } from '../core/internal/lazy-module.js';
import { zod } from '../core/internal/zod-module.js';
import { HOOK_FRONTMATTER_LIMITS } from './internal/frontmatter-limits.js';
import { compileManifestRegex } from './manifest-regex.js';
import { UnsafeRegexError } from './unsafe-regex-error.js';
import { HOOK_TRIGGER_NAMES } from './trigger-names.js';

/**
 * The reference validator's rule for `name`, once NFKC-normalised and trimmed: letters (of any script) and digits in
 * groups joined by single hyphens, and no uppercase letter (see {@link isHookName}); so `café-hook` is a name, and the
 * name is also a safe folder name and a stable identifier in logs.
 *
 * @internal
 */
export const HOOK_NAME_PATTERN: RegExp = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u;

/**
 * A name as the reference validator reads it: NFKC-normalised, surrounding white space trimmed.
 *
 * @internal
 */
export const normalizeHookName = (name: string): string => name.trim().normalize('NFKC');

/**
 * Whether `name` (already normalised) is a hook name: {@link HOOK_NAME_PATTERN}, in lowercase.
 *
 * @internal
 */
export const isHookName = (name: string): boolean => HOOK_NAME_PATTERN.test(name) && name === name.toLowerCase();

const { name, description, timeout, priority } = HOOK_FRONTMATTER_LIMITS;

/**
 * Marks a bad regex with a tag the problem mapper recognises, carrying the engine's own explanation, or for a regex
 * that can backtrack catastrophically, the field, the pattern, the risk and the fix.
 */
const regexString = (field: string, what: string) =>
  zod()
    .string()
    .superRefine((source, ctx) => {
      try {
        compileManifestRegex(source);
      } catch (error) {
        if (error instanceof UnsafeRegexError) {
          ctx.addIssue({ code: 'custom', message: `${field} '${source}' ${error.risk}: ${error.fix}.`, params: { kind: 'unsafe-regex' } });
        } else {
          ctx.addIssue({ code: 'custom', message: (error as Error).message, params: { kind: 'invalid-regex' } });
        }
      }
    })
    .meta({ description: what, format: 'regex' });

/**
 * The frontmatter of a HOOK.md, as the Agent Hooks spec and its reference validator define it. Objects are strict
 * because the reference validator rejects unknown keys, and a misspelt `priorty` that silently did nothing would be
 * worse than an error.
 *
 * `trigger` is an enum of every alias rather than a string with a refinement, so that the JSON Schema derived from
 * it gives editors the full list; turning the name into a canonical event is left to the validator.
 *
 * Made on the first call, then kept: zod builds and compiles a schema's checks as it is defined, 5 to 6 ms for this
 * one as the first schema of a process (Node 20 and 24), which `import 'agent-hooks'` paid before the first line of
 * its user's code; a process that validates no HOOK.md never needs it.
 *
 * @internal
 */
export const hookFrontmatterSchema = lazyValue(() => {
  const z = zod();
  return z
    .strictObject({
      /** The hook's identifier; the reference validator wants it equal to the folder name. */
      name: z
        .string()
        .min(name.min)
        .max(name.max)
        .regex(HOOK_NAME_PATTERN)
        // Only once the pattern holds: one problem per name.
        .refine((value) => !HOOK_NAME_PATTERN.test(value) || value === value.toLowerCase(), { params: { kind: 'uppercase-name' } })
        .meta({
          description: 'The hook identifier: lowercase letters (of any script), digits and single hyphens; equal to the folder name.',
        }),
      /** Shown to people choosing or auditing hooks, and to the model where the runtime discloses it. */
      description: z
        .string()
        .min(description.min)
        .max(description.max)
        .refine((value) => value.length === 0 || value.trim().length > 0, { params: { kind: 'blank' } })
        .meta({ description: 'What the hook does, in one or a few sentences.' }),
      /** Any event name of any dialect, so a hook ported from another agent keeps its name. */
      trigger: z.enum(HOOK_TRIGGER_NAMES).meta({
        description:
          'The event the hook runs for: a HOOK.md name (pre-tool-call), an older HOOK.md name (before_tool), or any alias such as PreToolUse.',
      }),
      /** Leaves the hook out before its process is spawned, which is what makes a matcher cheap. */
      matcher: z
        .strictObject({
          /** Checked at load time so that a typo fails where it is written, not on the first tool call. */
          tool: regexString('matcher.tool', 'A regex over the tool name (unanchored). Both tool and pattern must match when both are given.').optional(),
          /** Checked at load time, like `tool`. */
          pattern: regexString('matcher.pattern', 'A regex over the tool input, serialized as JSON (unanchored).').optional(),
        })
        .meta({ description: 'Which tool calls the hook runs for; only meaningful on tool events.' })
        .optional(),
      /** Milliseconds (not seconds, unlike Claude Code's configs): a hung script must not hang the agent. */
      timeout: z
        .int()
        .min(timeout.min)
        .max(timeout.max)
        .default(timeout.default)
        .meta({ description: 'Milliseconds before the hook process is killed; a timeout fails open.' }),
      /** For side effects only (logs, notifications): the agent does not wait. */
      async: z
        .boolean()
        .default(false)
        .meta({ description: 'Run in the background: the hook cannot block or modify anything.' }),
      /** Orders hooks of one event; the spec's range, so hooks stay portable between runtimes. */
      priority: z
        .int()
        .min(priority.min)
        .max(priority.max)
        .default(priority.default)
        .meta({ description: 'Higher runs first; ties keep user-before-project, then folder order.' }),
      /** Room for runtime- or hook-specific settings, so they need no new top-level key. */
      metadata: z
        .record(z.string(), z.unknown())
        .default({})
        .meta({ description: 'Free-form data for the hook and its runtime.' }),
    })
    .meta({ title: 'HOOK.md frontmatter', description: 'The YAML frontmatter of an Agent Hooks HOOK.md file.' });
});

/** A frontmatter as the schema outputs it: defaults filled in, `trigger` still the name as written. */
export type HookFrontmatter = z.output<ReturnType<typeof hookFrontmatterSchema>>;

/** A frontmatter as an author may write it: only `name`, `description` and `trigger` are required. */
export type HookFrontmatterInput = z.input<ReturnType<typeof hookFrontmatterSchema>>;

/**
 * The JSON Schema below as the build wrote it (`define` in tsup.config.ts, from the schema above): made as the module
 * loads, `z.toJSONSchema` took about 5 ms of `import 'agent-hooks'` on Node 24, for a value the same in every process.
 * Undeclared when the sources run as they are (the tests), which then make it; `test/package/package.test.ts` checks
 * the built value against the schema.
 */
declare const BUILT_HOOK_FRONTMATTER_JSON_SCHEMA: Record<string, unknown> | undefined;

/**
 * The JSON Schema (draft 2020-12) of a HOOK.md frontmatter, for editors (YAML language servers) and other tools.
 * It describes the input side, so fields with defaults are optional and carry their `default`.
 */
export const hookFrontmatterJsonSchema: Readonly<Record<string, unknown>> = Object.freeze(
  typeof BUILT_HOOK_FRONTMATTER_JSON_SCHEMA === 'object' ? BUILT_HOOK_FRONTMATTER_JSON_SCHEMA : (zod().toJSONSchema(hookFrontmatterSchema(), { io: 'input' }) as Record<string, unknown>),
);
