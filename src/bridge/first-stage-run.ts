/**
 * The bridge's first stage running the one HOOK.md hook a tool call can run on (before the tool runs or after), without
 * the stack, the contexts or the dialects: what the full path would do for that call, step for step, by the same
 * functions where they are light — the discovery cache's manifest, the script entry's lookup, the trust check, the
 * hook's environment, the process runner — and its own few lines where they are not (the hook's stdin, which property
 * tests hold equal to the HOOK.md dialect's). It answers alone when the hook's answer is to go on without a word (exit
 * 0, nothing on stdout), which the full path answers with nothing and exit 0 for every agent; any other answer goes to
 * the full path with the run, which reads it as it reads every run (see `process/recorded-run.ts`). Anything it is not
 * sure of before the hook starts — a manifest the cache does not hold, a trust check with anything to say, a matcher it
 * cannot read, a hook in the background or of another dialect — sends the call to the full path with nothing run.
 *
 * @module
 * @internal
 */
import { jsonDepthProblem } from '../core/internal/json-depth.js';
import { pythonJsonDumps } from '../dialects/internal/python-json.js';
import { projectSetPath } from '../dialects/project-set-env.js';
import { useBlockingFiles } from '../process/file-reads.js';
import { DEFAULT_MAX_OUTPUT_BYTES, runProcess, type ProcessResult } from '../process/run-process.js';
import type { RecordedRun } from '../process/recorded-run.js';
import { resolveScriptEntry } from '../script/entry.js';
import { HookEnvironment } from '../script/hook-environment.js';
import { DiscoveryCache, discoveryCacheDir } from '../script/internal/discovery-cache.js';
import { knownManifest, noHookFile, readHookFile } from '../script/internal/known-manifest.js';
import type { HookManifest, HookSource } from '../script/manifest.js';
import { applyTrust, resolveTrustPolicy } from '../script/trust/trust-policy.js';
import type { Json } from '../agents/light-profile.js';
import { ALONE_EVENTS } from './alone-events.js';
import { holdBridgeLifetime } from './bridge-hold.js';
import type { FirstStageIndex, FolderVerdict } from './first-stage-index.js';
import type { PayloadCall } from './payload-call.js';

/**
 * The one hook folder that may run on a call, and all the first stage knows of the call.
 *
 * @internal
 */
export interface AloneRequest {
  /** The hook's folder, as discovery lists it. */
  readonly dir: string;
  /** The level it was found at. */
  readonly source: HookSource;
  /** What the first stage's index says the folder's HOOK.md may run on. */
  readonly verdict: FolderVerdict;
  /** The call, read by the agent's light profile. */
  readonly call: PayloadCall;
  /** The project directory, resolved. */
  readonly projectDir: string;
  /** The environment the bridge was started with. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The first stage's index, for what it learns. */
  readonly index: FirstStageIndex;
  /** Loads the lessons, which learn what the index does not know yet. */
  readonly learn: () => Promise<typeof import('./first-stage-lessons.js')>;
}

/**
 * What running the hook alone came to: answered (the hook said nothing and let the call go on); or handed over, with
 * the run when the hook ran — then the full path must take it instead of starting the hook again.
 *
 * @internal
 */
export type AloneResult = { readonly answered: true; readonly exitCode: 0 } | { readonly answered: false; readonly recorded?: RecordedRun | undefined };

const HAND_OVER: AloneResult = { answered: false };

/** The fields of the agent's payload as the full reading picks them: the first of `names` present. */
const first = (fields: Json, names: readonly string[]): unknown => {
  for (const name of names) if (Object.hasOwn(fields, name)) return fields[name];
  return undefined;
};

/**
 * The stdin of a HOOK.md hook on PreToolUse or PostToolUse, as the HOOK.md dialect writes it from the context the full
 * reading makes of `fields` (see `sampleContext` and `hookMdDialect.payload`): the session's id (`agent` when the agent
 * sent none), the metadata the payload's `context` holds, the tool's name and arguments, its call id only when the
 * payload named it `tool_use_id`, and after the call its output (`null` when none was sent). `undefined` when it
 * cannot be sent as JSON (the full path then refuses the call).
 *
 * @internal
 */
export function toolCallStdin(event: string, fields: Json, eventName: string, workDir: string, now: Date = new Date()): string | undefined {
  const args = first(fields, ['tool_input', 'toolArgs']) as Json;
  const context = first(fields, ['context']) as Json | undefined;
  const output = event === 'PostToolUse' ? (first(fields, ['tool_output', 'tool_response', 'toolResult']) ?? null) : undefined;
  const payload = {
    event_type: eventName,
    timestamp: now.toISOString(),
    session_id: (first(fields, ['session_id', 'sessionId']) as string | undefined) ?? 'agent',
    work_dir: workDir,
    context: { ...context },
    tool_name: first(fields, ['tool_name', 'toolName']),
    tool_input: { ...args },
    tool_use_id: Object.hasOwn(fields, 'tool_use_id') ? fields.tool_use_id : null,
    ...(event === 'PostToolUse' ? { tool_output: output } : {}),
  };
  if (jsonDepthProblem(payload.tool_input) !== undefined || jsonDepthProblem(output) !== undefined || jsonDepthProblem(payload) !== undefined) return undefined;
  return pythonJsonDumps(payload);
}

/**
 * Whether `result` is a run the HOOK.md dialect reads as "go on, nothing to add": it started, was neither cancelled,
 * timed out, flooded nor killed, exited 0, and printed nothing but white space on a stdout of valid UTF-8 (see
 * `processFailure` and the dialect's `interpret`). Its stderr is not read on exit 0.
 *
 * @internal
 */
export function wentOnSilently(result: ProcessResult): boolean {
  return (
    result.spawnError === undefined &&
    !result.aborted &&
    !result.timedOut &&
    result.overflow === undefined &&
    result.signal === null &&
    result.exitCode === 0 &&
    result.notUtf8?.includes('stdout') !== true &&
    result.stdout.trim().length === 0
  );
}

/** Whether the manifest runs as the first stage runs hooks: in the foreground, on the HOOK.md protocol, as matched. */
function runsAlone(manifest: HookManifest, request: AloneRequest): boolean {
  const { verdict } = request;
  if (manifest.trigger !== request.call.event || manifest.async || manifest.metadata.dialect !== undefined) return false;
  if (typeof verdict !== 'object' || verdict.event !== request.call.event) return false;
  const { tool, pattern } = manifest.matcher ?? {};
  // An input pattern is matched by the stack, on the arguments: not here.
  if (pattern !== undefined && pattern !== '') return false;
  // A tool regex counts only when the filter read all of it (a literal alternation): it then matches as the filter does.
  return tool === undefined || tool === '' || verdict.tools !== null;
}

/**
 * Runs the hook of `request` alone when that is the full path's run to the letter; see the module's description.
 * Never throws once the hook has started: its run is always returned.
 *
 * @internal
 */
export async function runAlone(request: AloneRequest): Promise<AloneResult> {
  // Nothing else runs in this process until the hook starts: its files are read blocking, as the full path reads
  // them, and asynchronously again once the hook may run (see process/file-reads.ts).
  useBlockingFiles();
  try {
    return await prepareAndRun(request);
  } finally {
    useBlockingFiles(false);
  }
}

/** {@link runAlone}, its files read blocking until the hook starts. */
async function prepareAndRun(request: AloneRequest): Promise<AloneResult> {
  const { dir, source, call, projectDir, env, index } = request;
  // The full path tells the user of a PATH a project set: that is no silent answer.
  if (!ALONE_EVENTS.has(call.event) || projectSetPath(env) !== undefined) return HAND_OVER;
  const cacheDir = discoveryCacheDir(env);
  if (cacheDir === undefined) return HAND_OVER;
  const policy = resolveTrustPolicy(undefined, { hostEnv: env });
  // As discovery reads it: a project hook's regexes wait for its trust check, unless every project hook is trusted.
  const deferRegexSafety = policy !== 'all' && source === 'project';
  const found = await readHookFile(dir);
  if (noHookFile(found)) return HAND_OVER;
  const { known: manifest } = knownManifest(found, dir, { source, deferRegexSafety, cache: new DiscoveryCache(cacheDir) });
  if (manifest === undefined || !runsAlone(manifest, request)) return HAND_OVER;

  // Learnt once per build: the event's name for the script, and whether the tool regex has anything to report.
  const tool = manifest.matcher?.tool;
  if (deferRegexSafety && tool !== undefined && tool !== '') {
    let clean = index.toolMatcherClean(tool);
    if (clean === undefined) {
      clean = (await request.learn()).learnToolMatcherClean(tool);
      index.setToolMatcherClean(tool, clean);
    }
    if (!clean) return HAND_OVER;
  }
  let eventName = index.hookEventName(manifest.trigger, manifest.triggerName);
  if (eventName === undefined) {
    eventName = (await request.learn()).learnHookEventName(manifest.trigger, manifest.triggerName);
    index.setHookEventName(manifest.trigger, manifest.triggerName, eventName);
  }

  const entry = await resolveScriptEntry(manifest.dir);
  if (!entry.ok) return HAND_OVER;
  if (source === 'project') {
    const gate = await applyTrust([{ name: manifest.name, manifest }], () => true, policy, projectDir);
    if (gate.problems.length > 0 || gate.hooks.length !== 1) return HAND_OVER;
  }
  const stdin = toolCallStdin(call.event, call.fields, eventName, projectDir);
  if (stdin === undefined) return HAND_OVER;
  // The bridge's own policy when no --env-policy or --env-deny is given (which the first stage leaves to the full path).
  const environment = new HookEnvironment({ envPolicy: undefined, envDeny: [] });
  const hookEnv = environment.compose(undefined, { AGENT_HOOKS_PROJECT_DIR: projectDir, AGENT_HOOKS_EVENT: eventName, AGENT_HOOKS_HOOK_NAME: manifest.name });

  // From here on the hook may be running: the agent giving up on the call takes its process group with us.
  useBlockingFiles(false);
  const controller = new AbortController();
  const release = holdBridgeLifetime({ controller, onEnd: (reason) => process.stderr.write(`agent-hooks bridge: ${reason}\n`), exitCode: () => 1 });
  const command = entry.command;
  const result = await runProcess({
    command,
    cwd: projectDir,
    env: hookEnv,
    stdin,
    timeoutMs: manifest.timeout,
    maxOutputBytes: DEFAULT_MAX_OUTPUT_BYTES,
    signal: controller.signal,
  });
  release();
  return wentOnSilently(result) ? { answered: true, exitCode: 0 } : { answered: false, recorded: { command, cwd: projectDir, result } };
}
