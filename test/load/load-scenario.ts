/**
 * The load scenario shared by the load test and the `load` benchmark: many concurrent agent runs built from one
 * AgentBuilder, each with callbacks on every event and HOOK.md script hooks, each run checking that what its hooks see
 * belongs to it, and every script logging when it starts and ends so that concurrency is measured apart from the
 * pool's own counters.
 */
import { mkdir, readFile, rm, writeFile, mkdtemp, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  AgentBuilder,
  HOOK_EVENTS,
  ScriptedModel,
  defineTool,
  type Agent,
  type AnyHookContext,
  type HookEventName,
  type ModelRequest,
  type ModelResponse,
  type ProcessPool,
  type RunResult,
} from '../../src/index.js';

/** What to run. */
export interface LoadOptions {
  /** Concurrent runs. */
  readonly runs: number;
  /** Tool-calling steps per run (a final answer follows). */
  readonly steps: number;
  /** Callbacks on each of the canonical events. */
  readonly callbacksPerEvent: number;
  /** The events that get two script hooks each. */
  readonly scriptEvents: readonly HookEventName[];
  /** The pool the builder's hooks use; `undefined` for the shared default. */
  readonly processPool?: ProcessPool | undefined;
  /** Runs whose number is a multiple of this ask for a call the blocking script refuses (at step 3). */
  readonly blockEvery: number;
}

/** One run's result, and the run number it belongs to. */
export interface LoadRun {
  /** The run's number. */
  readonly index: number;
  /** What `run()` resolved with. */
  readonly result: RunResult;
}

/** What a load run measured. */
export interface LoadReport {
  /** Every run, in run order. */
  readonly runs: readonly LoadRun[];
  /** Every dispatch's duration (the agent's `dispatched` events), in milliseconds. */
  readonly dispatchMs: readonly number[];
  /** Everything a hook saw that belonged to another run (should be empty). */
  readonly crossTalk: readonly string[];
  /** The most script processes alive at once, replayed from the scripts' own start and end log lines. */
  readonly maxAlive: number;
  /** Script processes that ran (start lines in the log). */
  readonly processes: number;
  /** Wall time of all the runs, in milliseconds. */
  readonly wallMs: number;
  /** The agents' warnings (`agent.events`' `warning`), each with its code, event and hook. */
  readonly warnings: readonly string[];
}

/** The run id a run's prompt carries. */
export const runId = (index: number): string => `run-${index}`;

/** The tool's text at `step` of run `index`: `block-me` where the blocking script refuses it. */
export const stepText = (index: number, step: number, blockEvery: number): string =>
  step === 3 && index % blockEvery === 0 ? `block-me ${runId(index)}` : `${runId(index)} step ${step}`;

// Builtins only (no command substitution, no external command): a hook costs one /bin/sh and nothing more.
const PRELUDE = `echo + >> "$AGENT_HOOKS_PROJECT_DIR/alive.log"
IFS= read -r input || true
rest=\${input#*\\"owner\\": \\"}
owner=\${rest%%\\"*}`;
const EPILOGUE = `echo - >> "$AGENT_HOOKS_PROJECT_DIR/alive.log"`;

/** The two scripts an event gets: for PreToolUse a blocker and a rewriter, for UserPromptSubmit an echo of the owner. */
function scripts(event: HookEventName): { name: string; priority: number; body: string }[] {
  const observe = (name: string) => ({ name, priority: 100, body: `${PRELUDE}\n${EPILOGUE}` });
  if (event === 'PreToolUse') {
    return [
      {
        name: 'block',
        priority: 300,
        body: `${PRELUDE}\ncase "$input" in *block-me*) ${EPILOGUE}; echo "blocked for $owner" >&2; exit 2;; esac\n${EPILOGUE}`,
      },
      {
        name: 'rewrite',
        priority: 200,
        body: `${PRELUDE}\n${EPILOGUE}\necho "{\\"decision\\":\\"allow\\",\\"modified_input\\":{\\"text\\":\\"$owner via script\\"}}"`,
      },
    ];
  }
  if (event === 'UserPromptSubmit') {
    return [{ name: 'owner', priority: 200, body: `${PRELUDE}\n${EPILOGUE}\necho "{\\"additional_context\\":\\"owner=$owner\\"}"` }, observe('observe')];
  }
  return [observe('observe-a'), observe('observe-b')];
}

/** A project with two HOOK.md hooks for each of `events`. */
async function writeProject(dir: string, events: readonly HookEventName[]): Promise<void> {
  for (const event of events) {
    for (const script of scripts(event)) {
      const name = `${event.toLowerCase()}-${script.name}`;
      const folder = join(dir, '.agents', 'hooks', name);
      await mkdir(join(folder, 'scripts'), { recursive: true });
      await writeFile(join(folder, 'HOOK.md'), `---\nname: ${name}\ndescription: load test hook\ntrigger: ${event}\npriority: ${script.priority}\n---\n`);
      await writeFile(join(folder, 'scripts', 'run'), `#!/bin/sh\n${script.body}\n`);
      await chmod(join(folder, 'scripts', 'run'), 0o755);
    }
  }
}

/** The run id a context belongs to, read from the run's prompt (never from metadata). */
function ownerOf(ctx: AnyHookContext): string | undefined {
  const prompt = ctx.event === 'ExecutionStart' || ctx.event === 'UserPromptSubmit' ? ctx.prompt : ctx.state.messages[0]?.content;
  return /run-\d+/.exec(prompt ?? '')?.[0];
}

/** Runs the scenario once, in a temporary project that is removed afterwards. */
export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-hooks-load-'));
  try {
    await writeProject(dir, options.scriptEvents);
    const crossTalk: string[] = [];

    // One model for every run: it reads the run and the step from the conversation, as a real model would.
    const model = new ScriptedModel((request: ModelRequest): ModelResponse => {
      const owner = /run-\d+/.exec(request.messages[0]?.content ?? '')?.[0] ?? '?';
      const index = Number(owner.slice(4));
      const step = request.messages.filter((m) => m.role === 'assistant').length;
      if (step === 0 && options.scriptEvents.includes('UserPromptSubmit')) {
        const told = request.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
        if (!told.includes(`owner=${owner}`)) crossTalk.push(`${owner}: the model was told ${JSON.stringify(told)}`);
      }
      if (step >= options.steps) return { text: `${owner} done` };
      return { toolCalls: [{ id: `${owner}-call-${step}`, name: 'echo', args: { text: stepText(index, step, options.blockEvery) } }] };
    });
    // The scripted model keeps every request; under load that is memory nobody reads.
    const forget = setInterval(() => (model.requests.length = 0), 100);
    const echo = defineTool({ name: 'echo', input: z.object({ text: z.string() }), execute: ({ text }) => `echo: ${text}` });

    const builder = AgentBuilder.new()
      .withModel(model)
      .withTools(echo)
      .withMaxSteps(options.steps + 5)
      .withHooksFrom({ projectDir: dir, userDir: false, trust: 'all' });
    if (options.processPool !== undefined) builder.withOptions({ processPool: options.processPool });
    // The first callback of ExecutionStart writes the run's id into metadata; every callback of every event checks
    // that what it reads there is its own run's.
    builder.onExecutionStart((ctx) => ctx.withMetadata('owner', ownerOf(ctx)), { priority: 1000 });
    for (const event of HOOK_EVENTS) {
      for (let i = 0; i < options.callbacksPerEvent; i++) {
        builder.addHook(event, (ctx: AnyHookContext) => {
          const owner = ownerOf(ctx);
          const seen = ctx.get('owner');
          if (seen !== owner) crossTalk.push(`${event} callback ${i} of ${owner} read owner ${String(seen)}`);
          if (i === 0 && ctx.event === 'PostToolUse' && !new RegExp(`\\b${owner}\\b`).test(String(ctx.execution?.result))) {
            crossTalk.push(`${owner}: its tool returned ${JSON.stringify(ctx.execution?.result)}`);
          }
        });
      }
    }

    const dispatchMs: number[] = [];
    // What went wrong without failing a run — a script hook that crashed, timed out or could not start lets the call
    // through with a warning: under load, that is what to look at first.
    const warnings: string[] = [];
    const listen = (agent: Agent) => {
      agent.events.on('dispatched', (record) => dispatchMs.push(record.durationMs));
      agent.events.on('warning', (warning) => warnings.push(`${warning.code} (${warning.event ?? '-'}, ${warning.hookName ?? '-'}): ${warning.message}`));
    };
    // Half the runs share one agent, the other half each build their own from the same builder.
    const shared = builder.build();
    listen(shared);
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: options.runs }, async (_, index): Promise<LoadRun> => {
        const agent = index % 2 === 0 ? shared : builder.build();
        if (agent !== shared) listen(agent);
        return { index, result: await agent.run(`You are ${runId(index)}. Call echo ${options.steps} times.`) };
      }),
    );
    const wallMs = performance.now() - started;
    clearInterval(forget);

    const lines = options.scriptEvents.length === 0 ? [] : (await readFile(join(dir, 'alive.log'), 'utf8')).split('\n');
    let alive = 0;
    let maxAlive = 0;
    let processes = 0;
    for (const line of lines) {
      if (line === '+') {
        processes++;
        maxAlive = Math.max(maxAlive, ++alive);
      } else if (line === '-') alive--;
    }
    return { runs: results, dispatchMs, crossTalk, maxAlive, processes, wallMs, warnings };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The `q` quantile (0–1) of `xs`, nearest rank. */
export function quantile(xs: readonly number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}
