/**
 * `agent-hooks run`: dispatches one event through the project's whole stack, as an agent would.
 *
 * @module
 */
import { messageOf } from '../../core/internal/message-of.js';
import { ENV_POLICY_FLAGS, ENV_POLICY_HELP, environmentOf, parseFlags, positionalsUpTo, projectDirOf, PROJECT_FLAGS, TRUST_ALL_HELP, trustPolicyOf } from '../args.js';
import { ExitCode, type Command } from '../command.js';
import { dispatchExitCode, eventLine, fields, noteJson, noteLines, outcomeFields, outcomeJson } from '../dispatch-report.js';
import { loadProjectHooks } from '../hook-sources.js';
import { observedDispatch, type HookRun } from '../observed-dispatch.js';
import { hasErrors, printJson, problemJson, problemSection, roundMs, table, warnUntrusted } from '../output.js';
import { EVENT_INPUT_FLAGS, EVENT_INPUT_HELP, eventContext } from '../sample-input.js';

/** How long one hook took: its process's time when it ran one, else its own time in the chain. */
const durationOf = (run: HookRun): number | null => roundMs(run.exit?.durationMs ?? run.durationMs);

/**
 * `--json` prints one object: the merged `{ event, outcome, decision, reason, modifiedInput, additionalContext,
 * systemMessages }`, then `hooks` (those that ran, in order: `{ name, priority, kind, source, async, outcome, reason,
 * exitCode, durationMs }`, where a hook's `outcome` is what it returned — for a hook that went on, merged with the
 * hooks after it), `notes` (`{ level, hookName, code, message }`), `problems` (as `list` prints them) and `error`.
 *
 * Exit 0 whatever the hooks decided; 1 when a hook failed (crashed, timed out, answered nonsense, threw) or a hook
 * definition has an error.
 */
export const runCommand: Command = {
  name: 'run',
  synopsis: 'run --event E [--input FILE|-] [--tool NAME --args JSON] [--project DIR] [--env-policy P] [--env-deny GLOB]… [--json]',
  summary: 'dispatch one event through the project’s whole stack, as an agent would, and show the merged outcome',
  help: `Options:
  --event E         the event, any dialect's name (default: the input's event_type)
${EVENT_INPUT_HELP}
  --project DIR     the project (default: the current directory)
  --hooks-dir DIR   another folder of HOOK.md hook folders, relative to the project (repeatable); the
                    hooks of a relative one need trust, as the project's own do
${TRUST_ALL_HELP}
${ENV_POLICY_HELP}
  --json            print { event, outcome, decision, reason, modifiedInput, additionalContext, systemMessages,
                    hooks: [{ name, priority, kind, source, async, outcome, reason, exitCode, durationMs }],
                    notes, problems, error }

The project's own hooks run once trusted (agent-hooks trust); an untrusted or changed one is skipped, with a
warning on stderr.

Exit 0 whatever the hooks decided; 1 when a hook failed or a hook definition has an error.`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...PROJECT_FLAGS, ...ENV_POLICY_FLAGS, ...EVENT_INPUT_FLAGS, json: { type: 'boolean' } });
    positionalsUpTo(positionals, 0);
    const environment = environmentOf(values);
    const ctx = await eventContext(io, values);
    const projectDir = projectDirOf(io, values.project);
    const project = await loadProjectHooks({
      projectDir,
      hooksDirs: values['hooks-dir'] ?? [],
      hostEnv: io.env,
      environment,
      trust: trustPolicyOf(io, values['trust-all']),
    });
    const shownProblems = warnUntrusted(io, project.problems);
    const dispatch = await observedDispatch(project.stack, ctx);
    const code = hasErrors(project.problems) ? ExitCode.problems : dispatchExitCode(dispatch);
    const hooks = dispatch.runs.map((run) => {
      const row = project.rows.get(run.hook);
      return {
        name: run.name,
        priority: run.priority,
        kind: row?.kind ?? null,
        source: row?.source ?? null,
        async: row?.async ?? false,
        outcome: run.outcome?.type ?? null,
        reason: run.outcome?.reason ?? (run.error === undefined ? null : messageOf(run.error)),
        exitCode: run.exit?.exitCode ?? null,
        durationMs: durationOf(run),
      };
    });

    if (values.json) {
      printJson(io, {
        event: ctx.event,
        ...outcomeJson(ctx, dispatch.outcome),
        hooks,
        notes: dispatch.notes.map(noteJson),
        problems: project.problems.map(problemJson),
        error: dispatch.error === undefined ? null : messageOf(dispatch.error),
      });
      return code;
    }

    const s = io.style;
    io.out(fields(s, [['event', eventLine(ctx)], ...outcomeFields(s, dispatch)]));
    io.out('');
    if (hooks.length === 0) {
      io.out(s.dim(`No hook ran for ${ctx.event} in ${projectDir}.`));
    } else {
      io.out(
        table(
          s,
          ['priority', 'hook', 'source', 'returned', 'exit', 'time'],
          hooks.map((h) => [
            String(h.priority),
            { text: h.name, paint: s.bold },
            [h.kind, h.source].filter((p) => p !== null).join(' '),
            h.async ? 'async (cannot decide)' : h.outcome === null ? 'threw' : h.reason === null ? h.outcome : `${h.outcome}: ${h.reason}`,
            h.exitCode === null ? '-' : String(h.exitCode),
            h.durationMs === null ? '-' : `${h.durationMs.toFixed(1)} ms`,
          ]),
        ),
      );
    }
    const notes = noteLines(s, dispatch.notes);
    if (notes.length > 0) io.out(`\n${notes.join('\n')}`);
    if (shownProblems.length > 0) io.out(`\n${problemSection(s, shownProblems, io.cwd)}`);
    return code;
  },
};
