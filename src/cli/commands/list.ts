/**
 * `agent-hooks list`: every hook a project would run, in the order its stack runs them, and what is wrong with the
 * definitions that did not load.
 *
 * @module
 */
import { parseEvent, parseFlags, positionalsUpTo, projectDirOf, PROJECT_FLAGS, TRUST_ALL_HELP, trustPolicyOf } from '../args.js';
import { ExitCode, type Command } from '../command.js';
import type { Hook } from '../../core/index.js';
import { ScriptHook } from '../../script/script-hook.js';
import { triggerNameProblem } from '../../script/validate.js';
import { loadProjectHooks, type HookRow } from '../hook-sources.js';
import { displayPath, hasErrors, isTrustProblem, printJson, problemJson, problemSection, table } from '../output.js';
import { humanIO } from '../terminal-text.js';

/**
 * `--json` prints `{ hooks, untrusted, problems }`:
 * - `hooks`: in run order, each `{ name, events, priority, kind, source, matcher, async, timeoutMs, file, trust }`
 *   (see {@link HookRow}) and `{ description, trigger, metadata }`: a HOOK.md hook's description, its trigger as
 *   written and its metadata; a config file's hook's event as written; `null` where a hook has none;
 * - `untrusted`: the project hooks skipped because the trust store does not trust them as they are, each as in
 *   `hooks` with `trust` (`untrusted` or `changed`) and `changes`;
 * - `problems`: each `{ severity, code, file, line, hookName, field, found, allowed, message }`.
 *
 * Exit 1 when a problem is an error (that hook did not load).
 */
export const listCommand: Command = {
  name: 'list',
  synopsis: 'list [--project DIR] [--event E] [--hooks-dir DIR]… [--trust-all] [--json]',
  summary: 'every hook the project would run, in the order they run, and the problems of those that did not load',
  help: `Options:
  --project DIR     the project (default: the current directory); its hooks are in DIR/.agents/hooks
  --event E         only the hooks that run for event E (any dialect's name)
  --hooks-dir DIR   another folder of HOOK.md hook folders, relative to the project (repeatable)
${TRUST_ALL_HELP}
  --json            print { hooks: [{ name, events, priority, kind, source, matcher, async, timeoutMs, file,
                    trust, description, trigger, metadata }], untrusted: [{ …, trust, changes }],
                    problems: [{ severity, code, file, line, hookName, field, found, allowed, message }] }

User hooks are read from $XDG_CONFIG_HOME/agents/hooks (default ~/.config/agents/hooks). The project's own hooks
run once trusted: those that are not (or changed since) are listed apart, with what changed; review and trust them
with agent-hooks trust.
Exit 1 when a hook definition has an error.`,
  async run(args, given) {
    // Names, matchers and paths come from hook files: shown, never obeyed by the terminal.
    const io = humanIO(given);
    const { values, positionals } = parseFlags(args, { ...PROJECT_FLAGS, event: { type: 'string' }, json: { type: 'boolean' } });
    positionalsUpTo(positionals, 0);
    const event = values.event === undefined ? undefined : parseEvent(values.event);
    const projectDir = projectDirOf(io, values.project);
    const project = await loadProjectHooks({ projectDir, hooksDirs: values['hooks-dir'] ?? [], hostEnv: io.env, trust: trustPolicyOf(io, values['trust-all']) });
    const entries = event === undefined ? project.stack.all() : project.stack.hooksFor(event);
    const rows = entries.map((entry) => project.rows.get(entry.hook)!);
    // A trigger in an older or another agent's name loads, but not in the reference runtime: said here, as validate says it.
    const triggerProblems = entries.flatMap((entry) => {
      const problem = entry.hook instanceof ScriptHook ? triggerNameProblem(entry.hook.manifest) : undefined;
      return problem === undefined ? [] : [problem];
    });
    const allProblems = [...project.problems, ...triggerProblems];
    const untrusted = event === undefined ? project.untrusted : project.untrusted.filter((r) => r.events.length === 0 || r.events.includes(event));
    const code = hasErrors(project.problems) ? ExitCode.problems : ExitCode.ok;

    if (values.json) {
      const described = entries.map((entry, i) => ({ ...rows[i]!, ...definitionOf(entry.hook) }));
      printJson(io, { hooks: described, untrusted, problems: allProblems.map(problemJson) });
      return code;
    }
    const s = io.style;
    if (rows.length === 0) {
      io.out(s.dim(event === undefined ? `No hooks in ${projectDir}.` : `No hooks run for ${event} in ${projectDir}.`));
    } else {
      const cells = rows.map((r: HookRow) => [
        String(r.priority),
        { text: r.name, paint: s.bold },
        r.events.length === 0 ? '*' : r.events.join(','),
        [r.kind, r.source].filter((p) => p !== null).join(' '),
        r.matcher ?? '*',
        r.async ? 'async' : 'sync',
        r.timeoutMs === null ? '-' : `${r.timeoutMs} ms`,
        r.file === null ? '' : { text: displayPath(r.file, io.cwd), paint: s.dim },
      ]);
      io.out(table(s, ['priority', 'name', 'event', 'source', 'matcher', 'mode', 'timeout', 'file'], cells));
    }
    if (untrusted.length > 0) {
      io.out(`\n${s.bold('Not trusted, so not run')} (review and trust them: agent-hooks trust${values.project === undefined ? '' : ` --project ${values.project}`})`);
      const cells = untrusted.map((r) => [
        { text: r.trust, paint: s.yellow },
        { text: r.name, paint: s.bold },
        r.events.length === 0 ? '*' : r.events.join(','),
        [r.kind, r.source].filter((p) => p !== null).join(' '),
        r.file === null ? '' : { text: displayPath(r.file, io.cwd), paint: s.dim },
        r.changes.join(', '),
      ]);
      io.out(table(s, ['status', 'name', 'event', 'source', 'file', 'changes'], cells));
    }
    // Untrusted hooks are listed above; the other problems below.
    const problems = allProblems.filter((p) => !isTrustProblem(p));
    if (problems.length > 0) io.out(`\n${problemSection(s, problems, io.cwd)}`);
    // An agent's bridge entry with a matcher the hooks have outgrown would skip some of them without a word.
    for (const line of await (await import('./bridge-matchers.js')).staleMatcherLines(projectDir, io.env)) io.out(`\n${s.yellow(line)}`);
    // A bridge line written before it cleared NODE_OPTIONS runs a repository's code first, if the repository sets it.
    const bridgeLines = await import('./bridge-lines.js');
    for (const line of await bridgeLines.unclearedBridgeLines(projectDir, io.env)) io.out(`\n${s.yellow(line)}`);
    // A bridge line of an event the agent fires as it exits is ended with the agent unless it leaves its group.
    for (const line of await bridgeLines.undetachedExitLines(projectDir, io.env)) io.out(`\n${s.yellow(line)}`);
    // A repository's settings can switch off every hook Claude Code runs, the user's own guards among them.
    for (const line of await (await import('./hooks-off.js')).hooksOffLines(projectDir, io.env)) io.err(s.red(s.bold(line)));
    return code;
  },
};

/** What `list --json` adds to a row: the definition's own words. */
function definitionOf(hook: Hook): { description: string | null; trigger: string | null; metadata: Readonly<Record<string, unknown>> | null } {
  if (hook instanceof ScriptHook) {
    const m = hook.manifest;
    return { description: m.description, trigger: m.triggerName, metadata: m.metadata };
  }
  const eventName = (hook as { eventName?: unknown }).eventName;
  return { description: null, trigger: typeof eventName === 'string' ? eventName : null, metadata: null };
}
