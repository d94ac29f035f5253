/**
 * `agent-hooks test`: fires one hook with one event and shows everything it did.
 *
 * @module
 */
import { nodeFs } from '../../core/internal/node-fs.js';
import { basename, dirname, isAbsolute, resolve, sep } from 'node:path';
import { HookStack, type Hook } from '../../core/index.js';
import { messageOf } from '../../core/internal/message-of.js';
import { loadManifest, projectHooksDir, ScriptHook, userHooksDir, type HookEnvironment, type HookProblem } from '../../script/index.js';
import { ENV_POLICY_FLAGS, ENV_POLICY_HELP, environmentOf, parseFlags, positionalsUpTo, projectDirOf, PROJECT_FLAGS, TRUST_ALL_HELP, trustPolicyOf } from '../args.js';
import { ExitCode, UsageError, type Command } from '../command.js';
import { dispatchExitCode, eventLine, fields, noteJson, noteLines, outcomeFields, outcomeJson } from '../dispatch-report.js';
import { describeHook, loadProjectHooks, type HookRow } from '../hook-sources.js';
import type { CliIO } from '../io.js';
import { observedDispatch } from '../observed-dispatch.js';
import { displayPath, hasErrors, isTrustProblem, printJson, problemLines, roundMs } from '../output.js';
import { EVENT_INPUT_FLAGS, EVENT_INPUT_HELP, eventContext } from '../sample-input.js';

const { existsSync, statSync } = nodeFs;

/** The hook to fire, found by name or by path. */
interface Target {
  readonly hook: Hook;
  readonly row: HookRow;
}

const looksLikePath = (arg: string): boolean =>
  arg.includes('/') || arg.includes(sep) || arg === '.' || arg === '..' || isAbsolute(arg) || basename(arg) === 'HOOK.md';

/** A hook folder (or its HOOK.md) on disk, loaded as discovery would load it; its problems when it cannot load. */
async function hookAt(io: CliIO, path: string, projectDir: string, environment: HookEnvironment): Promise<Target | number> {
  const full = resolve(io.cwd, path);
  if (!existsSync(full)) throw new UsageError(`no hook folder at ${path}`);
  const dir = statSync(full).isFile() ? dirname(full) : full;
  // The level the folder sits at, as discovery would name it; a folder anywhere else is an extra one.
  const root = dirname(dir);
  const source = root === projectHooksDir(projectDir) ? 'project' : root === userHooksDir(io.env) ? 'user' : 'extra';
  const load = await loadManifest(dir, { source });
  if (!load.found) throw new UsageError(`${path} holds no HOOK.md`);
  if (load.manifest === undefined || hasErrors(load.problems)) return printProblems(io, load.problems, basename(dir));
  const hook = new ScriptHook(load.manifest, { projectDir, environment });
  return { hook, row: describeHook(new HookStack().with(hook, hook.priority).all()[0]!, 'HOOK.md') };
}

function printProblems(io: CliIO, problems: readonly HookProblem[], name: string): number {
  io.err(`agent-hooks test: hook '${name}' cannot load:\n${problemLines(io.style, problems, io.cwd).join('\n')}`);
  return ExitCode.problems;
}

/** A hook of the project by name: the first of that name in the stack's order. */
async function hookNamed(
  io: CliIO,
  name: string,
  projectDir: string,
  hooksDirs: readonly string[],
  trustAll: boolean | undefined,
  environment: HookEnvironment,
): Promise<Target | number> {
  const project = await loadProjectHooks({ projectDir, hooksDirs, hostEnv: io.env, environment, trust: trustPolicyOf(io, trustAll) });
  const entry = project.stack.all().find((e) => e.name === name);
  if (entry !== undefined) return { hook: entry.hook, row: project.rows.get(entry.hook)! };
  const skipped = project.problems.find((p) => p.hookName === name && isTrustProblem(p));
  if (skipped !== undefined) {
    io.err(`agent-hooks test: skipped: ${skipped.message} To fire it as it is without trusting it, give its folder's path.`);
    return ExitCode.problems;
  }
  const problems = project.problems.filter((p) => p.hookName === name);
  if (problems.length > 0) return printProblems(io, problems, name);
  // A folder of that name in the current directory (e.g. run from inside .agents/hooks).
  if (existsSync(resolve(io.cwd, name, 'HOOK.md'))) return hookAt(io, name, projectDir, environment);
  const known = project.stack.all().map((e) => e.name);
  throw new UsageError(
    `no hook named '${name}' in ${projectDir}${known.length > 0 ? ` (it has: ${known.join(', ')})` : ''}; give a hook folder's path to test a hook elsewhere`,
  );
}

/**
 * `--json` prints one object:
 * `{ hook: { name, events, priority, kind, source, matcher, async, timeoutMs, file }, event, ran, outcome, decision,
 * reason, modifiedInput, additionalContext, systemMessages, exitCode, signal, timedOut, stdout, stderr, durationMs,
 * notes: [{ level, hookName, code, message }], error }`. `ran` is false when the hook's matcher does not match the
 * event; the process fields are `null` when no process ran.
 *
 * Exit 0 whatever the hook decided; 1 when it failed (a crash, a timeout, output it could not use), or cannot load.
 */
export const testCommand: Command = {
  name: 'test',
  synopsis: 'test <hook|PATH> [--event E] [--input FILE|-] [--tool NAME --args JSON] [--env-policy P] [--env-deny GLOB]… [--json]',
  summary: 'fire one hook with a sample event and show its decision, output, exit code and duration',
  help: `The hook is a name (looked up in the project, as list shows it) or the path of a hook folder or HOOK.md.
A project hook named runs once trusted (agent-hooks trust); one given by its path runs as it is: naming its folder
on the command line is your consent.

Options:
  --event E         the event (default: the input's event_type, else the hook's trigger)
${EVENT_INPUT_HELP}
  --project DIR     the project: where the hook is looked up, and the script's working directory
  --hooks-dir DIR   another folder of HOOK.md hook folders, relative to the project (repeatable); the
                    hooks of a relative one need trust, as the project's own do
${TRUST_ALL_HELP}
${ENV_POLICY_HELP}
  --json            print { hook, event, ran, outcome, decision, reason, modifiedInput, additionalContext,
                    systemMessages, exitCode, signal, timedOut, stdout, stderr, durationMs, notes, error }

Exit 0 whatever the hook decided; 1 when the hook failed (crashed, timed out, printed output it could not use).`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...PROJECT_FLAGS, ...ENV_POLICY_FLAGS, ...EVENT_INPUT_FLAGS, json: { type: 'boolean' } });
    const [name] = positionalsUpTo(positionals, 1);
    if (name === undefined) throw new UsageError('name the hook to test: agent-hooks test <hook|PATH>');
    const environment = environmentOf(values);
    const projectDir = projectDirOf(io, values.project);
    const target = looksLikePath(name)
      ? await hookAt(io, name, projectDir, environment)
      : await hookNamed(io, name, projectDir, values['hooks-dir'] ?? [], values['trust-all'], environment);
    if (typeof target === 'number') return target;
    const { hook, row } = target;

    const ctx = await eventContext(io, values, row.events.length === 1 ? row.events[0] : undefined);
    if (row.events.length > 0 && !row.events.includes(ctx.event)) {
      throw new UsageError(`hook '${row.name}' runs on ${row.events.join(', ')}, not ${ctx.event}: leave out --event, or name one of its events`);
    }
    const dispatch = await observedDispatch(new HookStack().with(hook, row.priority), ctx);
    const run = dispatch.runs.find((r) => r.hook === hook);
    const exit = run?.exit;
    const code = dispatchExitCode(dispatch);

    if (values.json) {
      printJson(io, {
        hook: row,
        event: ctx.event,
        ran: run !== undefined,
        ...outcomeJson(ctx, dispatch.outcome),
        exitCode: exit?.exitCode ?? null,
        signal: exit?.signal ?? null,
        timedOut: exit?.timedOut ?? false,
        stdout: exit?.stdout ?? null,
        stderr: exit?.stderr ?? null,
        durationMs: roundMs(exit?.durationMs ?? run?.durationMs),
        notes: dispatch.notes.map(noteJson),
        error: dispatch.error === undefined ? null : messageOf(dispatch.error),
      });
      return code;
    }

    const s = io.style;
    const where = [row.kind, row.source, row.file === null ? undefined : displayPath(row.file, io.cwd)].filter((p) => p !== undefined && p !== null);
    const lines: [string, string | undefined][] = [
      ['hook', `${s.bold(row.name)}  ${s.dim(where.join(' '))}`],
      ['event', eventLine(ctx)],
    ];
    if (run === undefined) {
      lines.push(['ran', s.yellow(`no: its matcher (${row.matcher ?? '?'}) does not match this event; pass --tool and --args to fire it with a call it matches`)]);
    } else {
      lines.push(...outcomeFields(s, dispatch));
      if (exit !== undefined) {
        const status = exit.exitCode !== null ? String(exit.exitCode) : exit.signal !== null ? `killed by ${exit.signal}` : 'did not start';
        lines.push(
          ['exit code', exit.timedOut ? `${status} (timed out)` : status],
          ['duration', `${exit.durationMs.toFixed(1)} ms`],
          ['stdout', exit.stdout.trimEnd() === '' ? s.dim('(empty)') : exit.stdout.trimEnd()],
          ['stderr', exit.stderr.trimEnd() === '' ? s.dim('(empty)') : exit.stderr.trimEnd()],
        );
      } else if (run.durationMs !== undefined) {
        lines.push(['duration', `${run.durationMs.toFixed(1)} ms`]);
      }
    }
    io.out(fields(s, lines));
    const notes = noteLines(s, dispatch.notes);
    if (notes.length > 0) io.out(`\n${notes.join('\n')}`);
    return code;
  },
};
