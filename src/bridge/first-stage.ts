/**
 * The bridge's first stage: the cheapest path through a bridged hook call, which answers alone when it can prove that
 * no hook can run on the call — and then the full path's answer is known: nothing on stdout or stderr, exit 0 — or
 * when the one hook that can run on a tool call lets it go on without a word, which it runs itself where it can run it
 * as the full path would (see `first-stage-run.ts`). It
 * loads no more than Node's own modules and what it learnt before (see {@link FirstStageIndex}); whatever it cannot
 * decide so cheaply — a hook that may run, a HOOK.md with a problem, an agent-hooks.config module, a payload it does
 * not know to the last field, an option it does not take, a folder variable a project file set — goes to the full
 * path, with the payload it has read.
 *
 * Nothing in the environment turns it on or off: the environment is partly the project's (see `projectSetVariables`),
 * and a switch there must never change what a call comes to. The tests tell which path answered by calling
 * {@link bridgeFirstStage} themselves.
 *
 * @module
 * @internal
 */
import type { Dirent } from 'node:fs';
import { nodeFs } from '../core/internal/node-fs.js';
import { basename, resolve, sep } from 'node:path';
import { projectSetVariables } from '../dialects/project-set-env.js';
import { projectHooksDir, userHooksDir } from '../script/hook-dirs.js';
import { lightProfileOf } from '../agents/light-registry.js';
import type { LightAgentProfile } from '../agents/light-profile.js';
import { FirstStageIndex, firstStageIndexFile, folderKey, type FolderVerdict } from './first-stage-index.js';
import { ALONE_EVENTS } from './alone-events.js';
import { filterAdmits } from './hook-filter.js';
import { payloadCallOf, writtenEventOf } from './payload-call.js';
import type { RecordedRun } from '../process/recorded-run.js';
import type { HookSource } from '../script/manifest.js';

const { readdirSync, statSync } = nodeFs;

/**
 * What the first stage came to: the call answered (with this exit code), or handed over, with the payload when it was
 * read (the full path must not read stdin again).
 *
 * @internal
 */
export type FirstStageResult =
  | { readonly answered: true; readonly exitCode: number }
  | {
      readonly answered: false;
      readonly input?: string | undefined;
      /**
       * The one hook that could run on the call, run by the first stage already, when its answer is one the first
       * stage leaves to the full path to read: the full path takes this run for the one it would make.
       */
      readonly recorded?: RecordedRun | undefined;
    };

/**
 * Where the first stage runs: the bridge's arguments (after `bridge`), the environment, the directory, and stdin.
 *
 * @internal
 */
export interface FirstStageIO {
  /** The environment: the agent's project variable, the user's folders, the cache folder. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory a relative `--project` is resolved against. */
  readonly cwd: string;
  /** Reads the whole of standard input, the agent's payload. */
  readonly readStdin: () => Promise<string>;
  /**
   * Loads what runs the one hook a call can run on (default: `import()` of `first-stage-run.js`); `done` is called
   * once the run has answered or handed over (the executable then writes the file's code cache, see `code-cache.ts`).
   */
  readonly loadRunner?: (() => { readonly runner: typeof import('./first-stage-run.js'); done(): void }) | undefined;
}

/** The project's modules of in-process hooks (`CONFIG_MODULE_FILES`): one present sends the call to the full path. */
const CONFIG_MODULES = ['agent-hooks.config.mjs', 'agent-hooks.config.js', 'agent-hooks.config.mts', 'agent-hooks.config.ts'];

/** The options the first stage takes; any other argument goes to the full path, which knows them all. */
const OPTIONS = new Set(['from', 'event', 'project']);

/** `--from A --event E --project D` (each at most once, `--name value` or `--name=value`), or `undefined`. */
function optionsOf(args: readonly string[]): Map<string, string> | undefined {
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) return undefined;
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (!OPTIONS.has(name) || values.has(name)) return undefined;
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith('-'))) return undefined;
    values.set(name, value);
  }
  return values;
}

/** The hook folders of one root, as discovery lists them; `undefined` when listing fails otherwise than ENOENT. */
function foldersOf(root: string): string[] | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : undefined;
  }
  // `root` is resolved (normalised, no trailing separator but for the file system's root): joined by hand, as
  // `path.join` costs more than the listing on a call that looks at every hook folder of the project.
  const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
  return entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => `${prefix}${e.name}`);
}

const exists = (file: string): boolean => statSync(file, { throwIfNoEntry: false }) !== undefined;

/**
 * While the first stage reads stdin, the agent may give up on the call: it says so as the full path does then (see
 * `holdBridgeLifetime`) — there is no hook process to stop — and ends by the agent's signal itself. Not by
 * `process.exit`: stdin is read off the main thread (see `readStdin`), and an exit waits for that read, which only ends
 * when the agent closes stdin.
 */
function holdSignals(): () => void {
  const handlers = (['SIGTERM', 'SIGINT', 'SIGHUP'] as const).map((signal) => {
    const handler = (): void => {
      process.stderr.write(`agent-hooks bridge: ${signal} received: stopping the hooks and exiting.\n`, () => {
        release();
        process.kill(process.pid, signal);
      });
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  const release = (): void => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
  return release;
}

/**
 * Runs the first stage of `agent-hooks bridge` for `args` (what follows `bridge` on the command line). Never throws:
 * what goes wrong sends the call to the full path.
 *
 * @internal
 */
export async function bridgeFirstStage(args: readonly string[], io: FirstStageIO): Promise<FirstStageResult> {
  const options = optionsOf(args);
  const from = options?.get('from');
  const agent = from === undefined ? undefined : lightProfileOf(from);
  if (options === undefined || agent === undefined) return { answered: false };
  const release = holdSignals();
  let input: string;
  try {
    input = await io.readStdin();
  } finally {
    release();
  }
  try {
    return await firstStageOn(agent, options, input, io);
  } catch {
    return { answered: false, input };
  }
}

/** A hook folder whose hook may run on a call: the level it was found at, and what its HOOK.md may run on. */
interface MayRun {
  readonly dir: string;
  readonly source: HookSource;
  readonly verdict: FolderVerdict;
}

/**
 * The call `input` is, answered when no hook can run on it, as the full path would find; and when exactly one HOOK.md
 * hook can, run by `first-stage-run.ts` where it can run that hook exactly as the full path would. May throw (a stat
 * that fails oddly): the full path then says what is wrong.
 */
async function firstStageOn(agent: LightAgentProfile, options: ReadonlyMap<string, string>, input: string, io: FirstStageIO): Promise<FirstStageResult> {
  const handOver: FirstStageResult = { answered: false, input };
  // The full path tells the user of a folder variable a project set, and answers with that: never a silent exit 0.
  if (projectSetVariables(io.env).length > 0) return handOver;
  const fromEnv = agent.projectVariables.map((name) => io.env[name]).find((v) => v !== undefined && v !== '');
  const projectDir = resolve(io.cwd, options.get('project') ?? fromEnv ?? '.');
  // Resolved, so normalised: joined by hand, as `foldersOf` does.
  const inProject = projectDir.endsWith(sep) ? projectDir : `${projectDir}${sep}`;
  if (CONFIG_MODULES.some((file) => exists(`${inProject}${file}`))) return handOver;

  let payload: unknown;
  try {
    payload = JSON.parse(input);
  } catch {
    return handOver;
  }
  const written = writtenEventOf(agent.id, payload, options.get('event'));
  if (written === undefined) return handOver;

  const index = new FirstStageIndex(firstStageIndexFile(io.env));
  let lessons: typeof import('./first-stage-lessons.js') | undefined;
  const learn = async () => (lessons ??= await import('./first-stage-lessons.js'));
  try {
    const eventKey = `${written.rule}|${written.written}`;
    let event = index.event(eventKey);
    if (event === undefined) {
      event = await (await learn()).learnEvent(written.rule, written.written);
      index.setEvent(eventKey, event);
    }
    if (event === null) return handOver;
    const call = payloadCallOf(written, payload, event);
    if (call === undefined) return handOver;

    // The folders discovery reads: the user's, then the project's (one folder named twice is read once, as the user's).
    const userRoot = resolve(userHooksDir(io.env));
    const roots = [...new Set([userRoot, projectHooksDir(projectDir)])];
    const folders: string[] = [];
    const sources = new Map<string, HookSource>();
    for (const root of roots) {
      const found = foldersOf(root);
      if (found === undefined) return handOver;
      for (const dir of found) sources.set(dir, root === userRoot ? 'user' : 'project');
      folders.push(...found);
    }
    // A hook named like another is always loaded by the full path: which of the two runs depends on trust.
    const names = new Set(folders.map((dir) => basename(dir)));
    if (names.size !== folders.length) return handOver;

    let aliases: readonly string[] = [];
    if (call.tool !== undefined) {
      const known = index.aliasesOf(call.tool);
      aliases = known ?? (await learn()).learnAliases(call.tool);
      if (known === undefined) index.setAliases(call.tool, aliases);
    }
    const filterCall = { event: call.event, tool: call.tool, aliases };
    const verdicts: (readonly [string, FolderVerdict])[] = [];
    const unknown: string[] = [];
    for (const dir of folders) {
      const verdict = index.folder(dir, folderKey(dir));
      if (verdict === undefined) unknown.push(dir);
      else verdicts.push([dir, verdict]);
    }
    if (unknown.length > 0) {
      const { learnFolder } = await learn();
      for (const learnt of await Promise.all(unknown.map(async (dir) => [dir, await learnFolder(dir)] as const))) {
        const [dir, lesson] = learnt;
        if (lesson === undefined) return handOver;
        index.setFolder(dir, lesson.key, lesson.verdict);
        verdicts.push([dir, lesson.verdict]);
      }
    }
    const may: MayRun[] = [];
    for (const [dir, verdict] of verdicts) {
      if (verdict === 'none') continue;
      if (verdict === 'problem') return handOver;
      if (filterAdmits(verdict, filterCall)) may.push({ dir, source: sources.get(dir)!, verdict });
    }
    if (may.length === 0) return { answered: true, exitCode: 0 };
    // One hook that may run, on a tool call before or after it runs: run alone where the run can be made exactly as
    // the full path makes it. Two or more go to the full path, which orders them and stops at the first that blocks.
    if (may.length > 1 || !ALONE_EVENTS.has(call.event)) return handOver;
    const loaded = io.loadRunner?.() ?? { runner: await import('./first-stage-run.js'), done: () => {} };
    // Once the hook has started, nothing here may throw: a run lost on the way would be made again by the full path.
    const ran = await loaded.runner.runAlone({ ...may[0]!, call, projectDir, env: io.env, index, learn });
    try {
      loaded.done();
    } catch {
      // A code cache not written costs the next call its compile, nothing more.
    }
    return ran.answered ? ran : { answered: false, input, recorded: ran.recorded };
  } finally {
    index.save();
  }
}
