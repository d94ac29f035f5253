/**
 * The Vercel AI SDK integration at 10, 100 and 200 tool steps, against the AI SDK's own `generateText` loop with the
 * same scripted model and tool, measured in the same run:
 *
 * - `aiSdkModel`: the agent's loop with an AI SDK model, one `generateText` call per step;
 * - `hooksMiddleware` with `withHooks` tools (no hooks registered): the AI SDK's loop with our step events around it.
 *
 * The time per step should not grow with the conversation beyond what the AI SDK's own loop grows by. Each run takes
 * milliseconds and nothing in it waits: what is measured is the CPU time of the process (`process.cpuUsage`), which
 * other jobs on a shared machine disturb far less than wall time; the cases alternate, one run each per round.
 */
import { generateText, stepCountIs, tool, wrapLanguageModel, type LanguageModel } from 'ai';
import { z } from 'zod';
import { AgentBuilder, defineTool, HookStack } from '../src/index.js';
import { aiSdkModel, hooksMiddleware, LoopHooks, withHooks } from '../src/integrations/ai-sdk/index.js';
import { finishRow, ratioTarget, stats, timingRow, type Row, type Timing } from './harness.js';

type V3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type GenerateResult = Awaited<ReturnType<V3['doGenerate']>>;

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A model that calls `echo` `steps` times, then answers: it keeps nothing of the requests it gets. */
function scriptedModel(steps: number): { model: V3; reset: () => void; calls: () => number } {
  let step = 0;
  const model: V3 = {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'scripted',
    supportedUrls: {},
    doGenerate: async () =>
      step < steps
        ? {
            content: [{ type: 'tool-call', toolCallId: `call_${step}`, toolName: 'echo', input: JSON.stringify({ text: `hello ${step++}` }) }],
            finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
            usage,
            warnings: [],
          }
        : (step++, { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] }),
    doStream: () => Promise.reject(new Error('not streamed')),
  };
  return { model, reset: () => void (step = 0), calls: () => step };
}

/** The CPU time of one run of each op, in nanoseconds, over `rounds` rounds in alternating order. */
async function cpuTimes(ops: Record<string, () => Promise<unknown>>, rounds: number): Promise<Map<string, Timing>> {
  const samples = new Map<string, number[]>(Object.keys(ops).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const names = round % 2 === 0 ? Object.keys(ops) : Object.keys(ops).reverse();
    for (const name of names) {
      const before = process.cpuUsage();
      await ops[name]!();
      const used = process.cpuUsage(before);
      samples.get(name)!.push((used.user + used.system) * 1000);
    }
  }
  return new Map([...samples].map(([name, xs]) => [name, stats(xs)]));
}

export async function aiSdkSuite(): Promise<Row[]> {
  const rows: Row[] = [];
  const perStepAt = new Map<number, { sdk: number; model: number; middleware: number }>();
  for (const steps of [10, 100, 200]) {
    const scripted = scriptedModel(steps);
    const echoSdk = tool({ inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text });
    const echo = defineTool({ name: 'echo', input: z.object({ text: z.string() }), execute: ({ text }) => text });
    const agent = AgentBuilder.new().withModel(aiSdkModel(scripted.model)).withTools(echo).withMaxSteps(steps + 5).build();
    const loop = new LoopHooks(new HookStack());
    const wrapped = wrapLanguageModel({ model: scripted.model, middleware: hooksMiddleware(loop) });
    const hookedTools = withHooks({ echo: echoSdk }, loop);
    const runOnce = (op: () => Promise<unknown>) => async () => {
      scripted.reset();
      await op();
      if (scripted.calls() !== steps + 1) throw new Error(`ai-sdk bench: ${scripted.calls()} model calls instead of ${steps + 1}`);
    };
    const SDK = 'AI SDK generateText loop';
    const MODEL = 'Agent.run with aiSdkModel';
    const MIDDLEWARE = 'generateText loop with hooksMiddleware and withHooks tools';
    const prompt = 'Say hello.';
    const ops = {
      [SDK]: runOnce(() => generateText({ model: scripted.model, tools: { echo: echoSdk }, stopWhen: stepCountIs(steps + 1), prompt })),
      [MODEL]: runOnce(() => agent.run(prompt)),
      [MIDDLEWARE]: runOnce(() => generateText({ model: wrapped, tools: hookedTools, stopWhen: stepCountIs(steps + 1), prompt })),
    };
    // Compiled before the first sample: a run of 10 steps is too short for a warm-up to do it.
    for (let i = 0; i < 3; i++) for (const op of Object.values(ops)) await op();
    const m = await cpuTimes(ops, steps >= 100 ? 7 : 21);
    const suite = `AI SDK, ${steps} tool steps + 1 final step per run (CPU time)`;
    const perStep = (name: string) => {
      const t = m.get(name)!;
      return { ...t, mean: t.mean / (steps + 1), median: t.median / (steps + 1) };
    };
    const base = { name: SDK, timing: perStep(SDK) };
    const model = perStep(MODEL);
    const middleware = perStep(MIDDLEWARE);
    perStepAt.set(steps, { sdk: base.timing.median, model: model.median, middleware: middleware.median });
    rows.push(
      timingRow(suite, `${SDK}, per step`, base.timing),
      timingRow(suite, `${MODEL}, per step`, model, base),
      timingRow(suite, `${MIDDLEWARE}, per step`, middleware, base, ratioTarget(1.5, SDK)),
    );
  }
  // Flat per-step cost: the time of a step at 200 steps over the time of a step at 10.
  const at10 = perStepAt.get(10)!;
  const at200 = perStepAt.get(200)!;
  const suite = 'AI SDK, growth of the per-step CPU time';
  rows.push(
    finishRow({ suite, name: 'AI SDK generateText loop, a step at 200 steps', unit: 'ns', mean: at200.sdk, median: at200.sdk, baseline: 'a step at 10 steps', ratio: at200.sdk / at10.sdk }),
    finishRow({ suite, name: 'aiSdkModel, a step at 200 steps', unit: 'ns', mean: at200.model, median: at200.model, baseline: 'a step at 10 steps', ratio: at200.model / at10.model }),
    finishRow({ suite, name: 'hooksMiddleware, a step at 200 steps', unit: 'ns', mean: at200.middleware, median: at200.middleware, baseline: 'a step at 10 steps', ratio: at200.middleware / at10.middleware }),
  );
  return rows;
}
