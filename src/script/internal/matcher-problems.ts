// Internal: not exported from the package.
import { KNOWN_TOOL_NAMES } from '../../core/index.js';
import { compileManifestRegex } from '../manifest-regex.js';
import type { HookManifest } from '../manifest.js';
import type { HookProblem } from '../problem.js';
import { UnsafeRegexError } from '../unsafe-regex-error.js';
import { describeValue } from './describe-value.js';
import { regexSafetyDeferred } from './regex-safety.js';

/** What a HOOK.md matcher field accepts, as problems state it. */
export const MATCHER_ALLOWED = Object.freeze({
  'matcher.tool': 'a regular expression over the tool name, e.g. Shell or Write|Edit',
  'matcher.pattern': 'a regular expression over the tool input (as JSON)',
});

/**
 * A warning when `matcher.tool` can match no tool any agent has: the hook would never fire in Claude Code, Codex,
 * Gemini CLI, Copilot, Cursor or VS Code — most often a name of one agent's spelling (`^bash$`, which Claude Code calls
 * `Bash`) or a typo. A pattern that mentions MCP is left alone: MCP tools are named after their servers. Nothing is
 * said while regex safety is deferred: testing a pattern not yet judged safe is what deferring avoids.
 */
export function unknownToolProblem(tool: string, file: string, hookName: string | undefined): HookProblem | undefined {
  if (tool === '' || /mcp/i.test(tool) || regexSafetyDeferred()) return undefined;
  let re: RegExp;
  try {
    re = compileManifestRegex(tool);
  } catch {
    return undefined;
  }
  if (KNOWN_TOOL_NAMES.some((name) => re.test(name))) return undefined;
  return {
    file,
    hookName,
    field: 'matcher.tool',
    found: describeValue(tool),
    allowed: `a regex matching a tool an agent has, e.g. Shell, ReadFile, WriteFile, StrReplaceFile, Grep (any agent's name works too: Bash, run_shell_command)`,
    message: `${JSON.stringify(tool)} matches none of the tool names agent-hooks knows, so in the agents this hook would never fire. Use the HOOK.md name (tool: Shell matches every agent's shell tool), or ignore this warning if it names a tool of your own agent.`,
    severity: 'warning',
    code: 'unknown-tool',
  };
}

/**
 * The checks of a manifest's matcher regexes that validation leaves out while regex safety is deferred, made now: an
 * `unsafe-regex` error per regex that can backtrack catastrophically (worded as validation words it), and the
 * `unknown-tool` warning. A manifest with an error here must not be built into a hook.
 */
export function deferredMatcherProblems(manifest: HookManifest): HookProblem[] {
  const problems: HookProblem[] = [];
  for (const key of ['tool', 'pattern'] as const) {
    const source = manifest.matcher?.[key];
    if (source === undefined || source === '') continue;
    const field = `matcher.${key}` as const;
    try {
      compileManifestRegex(source);
    } catch (error) {
      if (!(error instanceof UnsafeRegexError)) continue;
      problems.push({
        file: manifest.file,
        hookName: manifest.name,
        field,
        found: describeValue(source),
        allowed: MATCHER_ALLOWED[field],
        message: `${field} '${source}' ${error.risk}: ${error.fix}.`,
        severity: 'error',
        code: 'unsafe-regex',
      });
    }
  }
  const tool = manifest.matcher?.tool;
  const unknown = tool === undefined || problems.length > 0 ? undefined : unknownToolProblem(tool, manifest.file, manifest.name);
  if (unknown !== undefined) problems.push(unknown);
  return problems;
}
