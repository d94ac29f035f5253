/**
 * aiSdkModel converts each message of the conversation once, not at every step, and sends the provider exactly the
 * prompt it sent when it converted the whole conversation at every step; hooksMiddleware gives hooks the conversation
 * of each prompt while converting only what each step added.
 */
import { APICallError, generateText, MissingToolResultsError, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ToolCall, type Message, type ModelRequest } from 'agent-hooks';
import { aiSdkModel, hooksMiddleware, LoopHooks, withHooks } from 'agent-hooks/ai-sdk';
import { fromModelMessages, toModelMessages } from '../../src/integrations/ai-sdk/internal/messages.js';
import { textAnswer, toolCallAnswer } from './ai-sdk-support.js';

type Prompt = MockLanguageModelV3['doGenerateCalls'][number]['prompt'];

const recorder = () => new MockLanguageModelV3({ doGenerate: async () => textAnswer('ok') });

/** The prompt of one call as the adapter made it when it converted the whole conversation at every step. */
async function wholePrompt(system: string | undefined, messages: readonly Message[]): Promise<Prompt> {
  const model = recorder();
  await generateText({ model, ...(system !== undefined ? { system } : {}), messages: toModelMessages(messages), allowSystemInMessages: true });
  return model.doGenerateCalls[0]!.prompt;
}

const request = (messages: readonly Message[], system?: string): ModelRequest => ({ system, messages, tools: [], signal: undefined });

/** The messages of one tool step: an assistant message calling `calls` tools, and their results. */
function toolStep(step: number, calls: number, text = ''): Message[] {
  const toolCalls = Array.from({ length: calls }, (_, i) => new ToolCall('echo', { text: `${step}.${i}` }, `call_${step}_${i}`));
  return [
    { role: 'assistant', content: text, toolCalls },
    ...toolCalls.map((c): Message => ({ role: 'tool', content: `echo: ${String(c.args['text'])}`, toolCallId: c.id, name: c.name })),
  ];
}

/** Messages whose `content` counts its readers: converting a message reads it, comparing by identity does not. */
function counted(messages: readonly Message[], reads: Set<Message>): Message[] {
  return messages.map((m) => {
    const proxy: Message = new Proxy(m, {
      get(target, key, receiver) {
        if (key === 'content') reads.add(proxy);
        return Reflect.get(target, key, receiver);
      },
    });
    return proxy;
  });
}

describe('aiSdkModel converts the conversation incrementally', () => {
  it('sends the prompt the whole conversion sends, at every step, whatever happens to the conversation', async () => {
    const inner = recorder();
    const model = aiSdkModel(inner);
    const system = 'Be brief.';
    let messages: Message[] = [{ role: 'user', content: 'Go.' }];
    const steps: { system: string | undefined; messages: Message[] }[] = [];
    const send = async (sys: string | undefined = system) => {
      steps.push({ system: sys, messages });
      await model.generate(request(messages, sys));
    };
    await send();
    for (let step = 0; step < 12; step++) {
      messages = [...messages, ...toolStep(step, 1 + (step % 3), step % 2 === 0 ? '' : `thinking ${step}`)];
      if (step === 4) messages = [...messages, { role: 'system', content: 'A hook says: careful.' }];
      if (step === 6) messages = [...messages, { role: 'user', content: 'Also this.' }];
      await send();
    }
    // The same request twice, then without the system prompt.
    await send();
    await send(undefined);
    // A hook rewrote a message in the middle (a new object): it and what follows are converted again.
    messages = messages.map((m, i) => (i === 3 ? { ...m, content: `${m.content} (edited)` } : m));
    await send();
    // Compaction: a summary and the tail.
    messages = [{ role: 'system', content: 'Summary of before.' }, ...messages.slice(-4), { role: 'user', content: 'Go on.' }];
    await send();
    // Another tool result for the last step's calls, arriving after the others (the run of results grew).
    messages = [...messages, ...toolStep(99, 2)];
    await send();
    messages = [...messages, { role: 'tool', content: 'late', toolCallId: 'call_99_1', name: 'echo' }];
    await send();
    messages = [...messages, { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'Thanks.' }];
    await send();

    expect(inner.doGenerateCalls).toHaveLength(steps.length);
    for (const [i, step] of steps.entries()) {
      expect(inner.doGenerateCalls[i]!.prompt, `step ${i}`).toEqual(await wholePrompt(step.system, step.messages));
    }
  });

  it('converts only the messages added since the last step: the same work at step 100 as at step 2', async () => {
    const model = aiSdkModel(recorder());
    const reads = new Set<Message>();
    let messages = counted([{ role: 'user', content: 'Go.' }], reads);
    const perStep: number[] = [];
    for (let step = 0; step < 100; step++) {
      messages = [...messages, ...counted(toolStep(step, 2), reads)];
      reads.clear();
      await model.generate(request(messages, 'Be brief.'));
      perStep.push(reads.size);
    }
    // Each step adds an assistant message and two tool results; the first step converts the user message too.
    expect(perStep[0]).toBe(4);
    expect(new Set(perStep.slice(1))).toEqual(new Set([3]));
  });

  it('still refuses a conversation with an unanswered tool call, early or late', async () => {
    const model = aiSdkModel(recorder());
    const unanswered: Message[] = [{ role: 'user', content: 'Go.' }, { role: 'assistant', content: '', toolCalls: [new ToolCall('echo', {}, 'lost')] }, { role: 'user', content: 'Well?' }];
    await expect(model.generate(request(unanswered))).rejects.toBeInstanceOf(MissingToolResultsError);

    let messages: Message[] = [{ role: 'user', content: 'Go.' }];
    for (let step = 0; step < 3; step++) {
      messages = [...messages, ...toolStep(step, 1)];
      await model.generate(request(messages));
    }
    // A hook dropped a result: the call is left unanswered in the part converted before.
    const dropped = messages.filter((m) => m.toolCallId !== 'call_1_0');
    await expect(model.generate(request([...dropped, { role: 'user', content: 'Next.' }]))).rejects.toBeInstanceOf(MissingToolResultsError);
  });

  it('retries with the same prompt', async () => {
    let attempts = 0;
    const inner = new MockLanguageModelV3({
      doGenerate: async () => {
        if (attempts++ === 1) throw new APICallError({ message: 'busy', url: 'x', requestBodyValues: {}, statusCode: 503, isRetryable: true });
        return textAnswer('ok');
      },
    });
    const model = aiSdkModel(inner, { settings: { maxRetries: 1 } });
    let messages: Message[] = [{ role: 'user', content: 'Go.' }];
    await model.generate(request(messages, 'Sys.'));
    messages = [...messages, ...toolStep(0, 1)];
    await model.generate(request(messages, 'Sys.'));
    expect(inner.doGenerateCalls).toHaveLength(3);
    expect(inner.doGenerateCalls[2]!.prompt).toEqual(inner.doGenerateCalls[1]!.prompt);
    expect(inner.doGenerateCalls[2]!.prompt).toEqual(await wholePrompt('Sys.', messages));
  });
});

describe('hooksMiddleware converts the prompt incrementally', () => {
  it('gives hooks the conversation of each prompt, converting only what each step added', async () => {
    const STEPS = 40;
    const seen: (readonly Message[])[] = [];
    const builder = AgentBuilder.new().onBeforeStep((ctx) => void seen.push(ctx.state.messages));
    const hooks = new LoopHooks(builder);
    let call = 0;
    const inner = new MockLanguageModelV3({
      doGenerate: async () => (call < STEPS ? toolCallAnswer('echo', { text: `hi ${call}` }, `call_${call++}`) : textAnswer('Done.')),
    });
    const model = wrapLanguageModel({ model: inner, middleware: hooksMiddleware(hooks) });
    const echo = tool({ inputSchema: z.object({ text: z.string() }), execute: async ({ text }) => text });
    const result = await generateText({ model, tools: withHooks({ echo }, hooks), stopWhen: stepCountIs(STEPS + 1), system: 'Be brief.', prompt: 'Go.' });

    expect(result.text).toBe('Done.');
    expect(seen).toHaveLength(STEPS + 1);
    for (const [i, messages] of seen.entries()) {
      expect(messages, `step ${i}`).toEqual(fromModelMessages(inner.doGenerateCalls[i]!.prompt));
    }
    // A message object hooks saw at one step is the very one they see at the next: only the step's own are new.
    const fresh = seen.slice(1).map((messages, i) => messages.filter((m) => !seen[i]!.includes(m)).length);
    expect(new Set(fresh)).toEqual(new Set([2]));
  });
});
