/**
 * `agent-hooks trust`: review a project's hooks and trust them, so that they run; list or revoke what is trusted.
 *
 * @module
 */
import { nodeFs } from '../../core/internal/node-fs.js';
import { relative, resolve } from 'node:path';
import type { Hook } from '../../core/index.js';
import { isInside } from '../../script/trust/internal/paths.js';
import { CONFIG_MODULE_KIND, resolveScriptEntry, ScriptHook, TrustStore, formatProblem, type TrustCheck, type TrustEntry } from '../../script/index.js';
import { parseFlags, projectDirOf } from '../args.js';
import { ExitCode, UsageError, type Command } from '../command.js';
import { checkConfigModule, findConfigModule, type ConfigModule } from '../config-module.js';
import { loadProjectHooks } from '../hook-sources.js';
import type { CliIO } from '../io.js';
import { displayPath, printJson, table } from '../output.js';
import { escapeControls, humanIO } from '../terminal-text.js';

const { existsSync, statSync } = nodeFs;

/** One project hook as `trust` shows it. */
interface TrustRow {
  readonly name: string;
  readonly kind: string;
  readonly file: string;
  readonly field: string | null;
  readonly status: TrustCheck['status'];
  /**
   * What it runs: the script of a HOOK.md hook, the command of a config hook, a prompt hook's prompt, or for the
   * config module, that the bridge imports it.
   */
  readonly runs: string;
  readonly changes: readonly string[];
  /** What its command names that trust does not pin (a file outside the project, a path built from a variable). */
  readonly unpinned: readonly string[];
}

/** What a hook runs, as the user would recognise it. */
async function runsOf(hook: Hook, io: CliIO): Promise<string> {
  if (hook instanceof ScriptHook) {
    const entry = await resolveScriptEntry(hook.manifest.dir);
    return entry.ok ? entry.command.map((part) => displayPath(part, io.cwd)).join(' ') : '(no script)';
  }
  const { command, prompt } = hook as { command?: unknown; prompt?: unknown };
  if (typeof command === 'string') return command;
  if (typeof prompt === 'string') return `prompt: ${prompt}`;
  return '';
}

async function rowOf(check: TrustCheck<Hook | ConfigModule>, io: CliIO): Promise<TrustRow> {
  const { fingerprint } = check;
  const module = fingerprint.kind === CONFIG_MODULE_KIND;
  return {
    name: fingerprint.name,
    kind: fingerprint.kind,
    file: fingerprint.path,
    field: fingerprint.field ?? null,
    status: check.status,
    runs: module ? 'imported by agent-hooks bridge' : await runsOf(check.hook as Hook, io),
    changes: check.changes,
    unpinned: fingerprint.unpinned ?? [],
  };
}

function printRows(io: CliIO, rows: readonly TrustRow[], first: string): void {
  const s = io.style;
  io.out(
    table(
      s,
      [first, 'name', 'kind', 'file', 'runs'],
      rows.map((r) => [
        { text: r.status, paint: r.status === 'changed' ? s.yellow : (t: string) => t },
        { text: r.name, paint: s.bold },
        r.kind,
        { text: `${displayPath(r.file, io.cwd)}${r.field === null ? '' : ` ${r.field}`}`, paint: s.dim },
        r.runs,
      ]),
    ),
  );
  for (const r of rows) if (r.changes.length > 0) io.out(s.yellow(escapeControls(`${r.name}: ${r.changes.join(', ')} since it was trusted`)));
  // Trusting pins what the command names in the project; what it names elsewhere can change without untrusting it.
  for (const r of rows) if (r.unpinned.length > 0) io.out(s.yellow(escapeControls(`${r.name}: trust does not pin ${r.unpinned.join(', ')}; review what that runs yourself`)));
}

const entryJson = (e: TrustEntry) => ({ path: e.path, field: e.field ?? null, kind: e.kind, name: e.name, sha256: e.sha256, files: e.files, trustedAt: e.trustedAt });

async function listEntries(io: CliIO, store: TrustStore, projectDir: string | undefined, json: boolean | undefined): Promise<number> {
  const read = await store.load();
  const entries = projectDir === undefined ? read.entries : read.entries.filter((e) => isInside(e.path, projectDir));
  if (read.problem !== undefined) io.err(`agent-hooks trust: ${formatProblem(read.problem)}`);
  const code = read.problem === undefined ? ExitCode.ok : ExitCode.problems;
  if (json) {
    printJson(io, { store: store.path, entries: entries.map(entryJson) });
    return code;
  }
  if (entries.length === 0) {
    io.out(io.style.dim(`Nothing trusted${projectDir === undefined ? '' : ` in ${projectDir}`} (${store.path}).`));
    return code;
  }
  io.out(
    table(
      io.style,
      ['trusted at', 'name', 'kind', 'file'],
      entries.map((e) => [e.trustedAt, { text: e.name, paint: io.style.bold }, e.kind, `${displayPath(e.path, io.cwd)}${e.field === undefined ? '' : ` ${e.field}`}`]),
    ),
  );
  io.out(io.style.dim(`\n${entries.length} trusted hook${entries.length === 1 ? '' : 's'} in ${store.path}`));
  return code;
}

/**
 * `--json` prints `{ store, hooks: [{ name, kind, file, field, status, runs, changes, unpinned }], trusted }`: `hooks`
 * are the project hooks that are not trusted (`untrusted`, or `changed` since they were), `trusted` those this run
 * trusted; `unpinned` lists what a hook's command names that trust does not pin.
 * `--list --json` prints `{ store, entries: [{ path, field, kind, name, sha256, files, trustedAt }] }`;
 * `--revoke --json` prints `{ store, revoked: [ …entries ] }`.
 *
 * Exit 0 when no project hook is left untrusted; 1 when some are (not confirmed, or standard input is not a
 * terminal and `--all` was not given, or a hook cannot be fingerprinted: a FIFO or unreadable file in it, said on
 * stderr), or the store cannot be read.
 */
// A module of in-process hooks named as a PATH (the bridge's --config FILE).
const MODULE_FILE = /\.(m?js|m?ts|cjs)$/;

export const trustCommand: Command = {
  name: 'trust',
  synopsis: 'trust [PATH…] [--all] [--project DIR] [--hooks-dir DIR]… [--json] | trust --list [--project DIR] | trust --revoke [PATH…] [--project DIR]',
  summary: 'review the project’s hooks and trust them, so that they run; list or revoke what is trusted',
  help: `A project's own hooks — its .agents/hooks folders and the hooks of its .claude/settings*.json,
.github/hooks/*.json, .gemini/settings.json, .cursor/hooks.json and .codex/hooks.json — run only once you trust
them, and again after every change to what they run. So does its agent-hooks.config.* (in-process hooks module): the code
agent-hooks bridge imports, pinned by its own text (the files it imports are not). So do the hooks of a
--hooks-dir folder named relative to the project (a command line used in every project, such as the bridge's,
names a folder each repository controls): pass the same --hooks-dir here to review and trust them. User-level
hooks and an absolute --hooks-dir need no trust.

Without --all, lists the project's hooks that are not trusted (or changed since they were): name, kind, file,
what each runs and what changed, and what a command names that trust does not pin (a file outside the project,
a path built from a variable); on a terminal it then asks whether to trust them. A hook that cannot be pinned
(a FIFO or an unreadable file in it) is named on stderr and cannot be trusted. When standard input is not a
terminal, it lists them, trusts nothing and exits 1: review the list, then pass --all.

Options:
  PATH…             only the hooks defined in these files or folders (a hook folder, a config file,
                    agent-hooks.config.mjs, or the module a bridge is given with a relative --config)
  --all             trust every project hook that is not trusted yet, without asking, and print each one
  --project DIR     the project (default: the current directory)
  --hooks-dir DIR   also the hooks of this folder of HOOK.md hook folders, relative to the project, as the
                    bridge (or list, run, test) is given it (repeatable)
  --list            print what the trust store holds (with --project: that project's entries only)
  --revoke          remove the project's entries (or those of PATH…) from the trust store
  --json            print JSON (see below) instead of tables; never asks

The trust store is $XDG_CONFIG_HOME/agent-hooks/trust.json (default ~/.config/agent-hooks/trust.json): each hook
pinned by its file and the SHA-256 of what it runs. In CI, skip trust with --trust-all or AGENT_HOOKS_TRUST=all on
the commands that run hooks.

--json prints { store, hooks: [{ name, kind, file, field, status, runs, changes, unpinned }], trusted: [names] };
with --list { store, entries }, with --revoke { store, revoked }.
Exit 0 when no project hook is left untrusted; 1 when some are, or the store cannot be read.`,
  async run(args, given) {
    // What the review shows comes from hook files: a \r or an escape sequence in a command must not rewrite it.
    const io = humanIO(given);
    const { values, positionals } = parseFlags(args, {
      project: { type: 'string' },
      'hooks-dir': { type: 'string', multiple: true },
      all: { type: 'boolean' },
      list: { type: 'boolean' },
      revoke: { type: 'boolean' },
      json: { type: 'boolean' },
    });
    const modes = [values.all, values.list, values.revoke].filter((v) => v === true).length;
    if (modes > 1) throw new UsageError('--all, --list and --revoke go one at a time');
    const projectDir = projectDirOf(io, values.project);
    const paths = positionals.map((p) => resolve(io.cwd, p));
    for (const [i, path] of paths.entries()) {
      if (!isInside(path, projectDir)) throw new UsageError(`${positionals[i]} is not inside the project ${projectDir}; name the project with --project`);
      if (!existsSync(path)) throw new UsageError(`no file or folder at ${positionals[i]}`);
    }
    const selected = (file: string) => paths.length === 0 || paths.some((p) => isInside(file, p));
    // Always the store: --trust-all and AGENT_HOOKS_TRUST skip the check when hooks run, never what is trusted.
    const store = TrustStore.forUser({ hostEnv: io.env });

    if (values.list) {
      if (positionals.length > 0) throw new UsageError('--list takes no PATH; use --project to see one project');
      return listEntries(io, store, values.project === undefined ? undefined : projectDir, values.json);
    }
    if (values.revoke) {
      const { entries, backup } = await store.untrust((e) => isInside(e.path, projectDir) && selected(e.path));
      if (values.json) {
        printJson(io, { store: store.path, revoked: entries.map(entryJson) });
        return ExitCode.ok;
      }
      if (backup !== undefined) io.err(`agent-hooks trust: the trust store could not be read; a copy of it is kept as ${backup}`);
      if (entries.length === 0) io.out(`Nothing was trusted in ${projectDir}.`);
      for (const e of entries) io.out(`revoked  ${escapeControls(`${e.name}  ${e.kind}  ${displayPath(e.path, io.cwd)}${e.field === undefined ? '' : ` ${e.field}`}`)}`);
      if (entries.length > 0) io.out(`\nRevoked ${entries.length} hook${entries.length === 1 ? '' : 's'}: they no longer run until trusted again.`);
      return ExitCode.ok;
    }

    const project = await loadProjectHooks({ projectDir, hooksDirs: values['hooks-dir'] ?? [], hostEnv: io.env, trust: store });
    // The modules of in-process hooks the bridge would import from the project, trusted like the hooks: the one it
    // finds, and any named here (for a bridge given one with a relative --config).
    const found = await findConfigModule(projectDir);
    const named = paths.filter((p) => MODULE_FILE.test(p) && statSync(p).isFile());
    const moduleFiles = [...new Set([...(found === undefined ? [] : [found]), ...named])];
    const modules = await Promise.all(moduleFiles.map((file) => checkConfigModule(file, projectDir, store)));
    const storeProblem = [...project.problems, ...modules.flatMap((m) => m.problems)].find((p) => p.code === 'corrupt-trust-store');
    if (storeProblem !== undefined) io.err(`agent-hooks trust: ${formatProblem(storeProblem)}`);
    // A hook that cannot be fingerprinted cannot be trusted either: say so, and which part is at fault.
    const unpinnable = [...project.problems, ...modules.flatMap((m) => m.problems)].filter((p) => p.code === 'unpinnable-hook' && selected(p.file));
    for (const problem of unpinnable) io.err(`agent-hooks trust: ${formatProblem(problem)}`);
    const done = unpinnable.length === 0 ? ExitCode.ok : ExitCode.problems;
    const allChecks: TrustCheck<Hook | ConfigModule>[] = [...project.trustChecks, ...modules.flatMap((m) => (m.check === undefined ? [] : [m.check]))];
    const checks = allChecks.filter((c) => selected(c.fingerprint.path));
    const pending = checks.filter((c) => c.status !== 'trusted');
    const rows = await Promise.all(pending.map((c) => rowOf(c, io)));
    const trust = async (): Promise<string | undefined> => (await store.trust(pending.map((c) => c.fingerprint))).backup;

    if (pending.length === 0) {
      if (values.json) printJson(io, { store: store.path, hooks: [], trusted: [] });
      else io.out(checks.length === 0 ? `No project hooks to trust in ${projectDir}.` : `All ${checks.length} project hook${checks.length === 1 ? ' is' : 's are'} trusted.`);
      return done;
    }
    if (values.all) {
      const backup = await trust();
      if (backup !== undefined) io.err(`agent-hooks trust: the trust store could not be read; a copy of it is kept as ${backup}`);
      if (values.json) {
        printJson(io, { store: store.path, hooks: rows, trusted: rows.map((r) => r.name) });
        return done;
      }
      printRows(io, rows, 'before');
      io.out(`\nTrusted ${rows.length} hook${rows.length === 1 ? '' : 's'} in ${store.path}.`);
      return done;
    }
    if (values.json) {
      printJson(io, { store: store.path, hooks: rows, trusted: [] });
      return ExitCode.problems;
    }
    io.out(`${rows.length} project hook${rows.length === 1 ? ' is' : 's are'} not trusted, so ${rows.length === 1 ? 'it does' : 'they do'} not run:\n`);
    printRows(io, rows, 'status');
    const rest = relative(io.cwd, projectDir) === '' ? '' : ` --project ${displayPath(projectDir, io.cwd)}`;
    if (io.interactive !== true || io.ask === undefined) {
      io.err(`\nNothing was trusted: standard input is not a terminal. Review the hooks above, then run 'agent-hooks trust --all${rest}' to trust them.`);
      return ExitCode.problems;
    }
    const answer = await io.ask(`\nTrust ${rows.length === 1 ? 'this hook' : `these ${rows.length} hooks`} and let ${rows.length === 1 ? 'it' : 'them'} run? [y/N] `);
    if (!/^\s*y(es)?\s*$/i.test(answer)) {
      io.out('Nothing was trusted.');
      return ExitCode.problems;
    }
    const backup = await trust();
    if (backup !== undefined) io.err(`agent-hooks trust: the trust store could not be read; a copy of it is kept as ${backup}`);
    io.out(`Trusted ${rows.length} hook${rows.length === 1 ? '' : 's'} in ${store.path}.`);
    return done;
  },
};
