import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  HookOutcome,
  ScriptedModel,
  StreamCancelledError,
  defineSubagent,
  defineTool,
  type AgentStream,
  type AgentStreamEvent,
  type Model,
  type ModelRequest,
  type ModelStreamPart,
} from 'agent-hooks';
import { tempDir, writeExecutable } from '../support/script-fixture.js';
import { callStep, callsStep, echoTool } from './support.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Every event of a stream, read to the end. */
async function drain(stream: AgentStream): Promise<AgentStreamEvent[]> {
  const events: AgentStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** An event as one short label: its type, and what tells events of one type apart. */
function label(event: AgentStreamEvent): string {
  switch (event.type) {
    case 'step-start':
      return `step-start:${event.stepIndex}`;
    case 'text-delta':
      return `text:${event.text}`;
    case 'model-response':
      return `model-response${event.synthetic ? '(synthetic)' : ''}:${event.response.text}|${event.response.toolCalls.map((c) => c.name).join(',')}`;
    case 'tool-call':
      return `tool-call:${event.toolCall.name}`;
    case 'tool-result':
      return `tool-result:${event.execution.isError ? `error:${event.execution.errorMessage}` : String(event.execution.result)}`;
    case 'hook-decision':
      return `hook:${event.event}:${event.decision}${event.changed ? '(changed)' : ''}`;
    case 'step-end':
      return `step-end:${event.step.index}`;
    case 'warning':
      return `warning:${event.warning.code}`;
    case 'subagent':
      return `subagent(${event.name}):${label(event.event)}`;
    case 'run-end':
      return `run-end:${event.result.status}`;
  }
}

const texts = (events: readonly AgentStreamEvent[]) => events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : []));

describe('agent.stream()', () => {
  it('yields the text as the model writes it, each tool call and result, the hooks’ decisions and the steps, in order', async () => {
    const echo = echoTool();
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel([{ text: 'Let me echo.', toolCalls: [{ name: 'echo', args: { text: 'hi' } }] }, 'All done now.']))
      .withTools(echo.tool)
      .onBeforeToolUse(() => undefined)
      .build();
    const events = await drain(agent.stream('Go'));

    expect(events.map(label)).toEqual([
      'step-start:0',
      'text:Let ',
      'text:me ',
      'text:echo.',
      'model-response:Let me echo.|echo',
      'tool-call:echo',
      'hook:PreToolUse:proceed',
      'tool-result:echo: hi',
      'step-end:0',
      'step-start:1',
      'text:All ',
      'text:done ',
      'text:now.',
      'model-response:All done now.|',
      'step-end:1',
      'run-end:completed',
    ]);
  });

  it('ends in a result equal to what run() gives, and resolves `result` with it', async () => {
    const build = () =>
      AgentBuilder.new()
        .withModel(new ScriptedModel([callStep('echo', { text: 'a' }, 'call-1'), 'Done.']))
        .withTools(echoTool().tool)
        .onAfterToolUse(() => HookOutcome.proceed(undefined, { additionalContext: 'noted' }))
        .build();
    const ran = await build().run('Go');
    const stream = build().stream('Go');
    const events = await drain(stream);
    const streamed = await stream.result;

    const end = events.at(-1);
    expect(end?.type === 'run-end' && end.result).toBe(streamed);
    expect(streamed.messages).toEqual(ran.messages);
    expect(streamed.status).toBe(ran.status);
    expect(streamed.text).toBe('Done.');
  });

  it('takes the text of a model without `stream` whole, as one delta', async () => {
    const model: Model = { name: 'plain', generate: () => ({ text: 'Whole answer.' }) };
    const events = await drain(AgentBuilder.new().withModel(model).build().stream('Hi'));
    expect(texts(events)).toEqual(['Whole answer.']);
  });

  it('cuts text by chunkSize', async () => {
    const events = await drain(AgentBuilder.new().withModel(new ScriptedModel(['abcdefg'], { chunkSize: 3 })).build().stream('Hi'));
    expect(texts(events)).toEqual(['abc', 'def', 'g']);
  });

  it('reports a refused call: the PreToolUse block, then the refusal as the tool result; the tool never runs', async () => {
    const echo = echoTool();
    const events = await drain(
      AgentBuilder.new()
        .withModel(new ScriptedModel([callStep('echo', { text: 'rm -rf /' }), 'ok']))
        .withTools(echo.tool)
        .onBeforeToolUse(() => HookOutcome.block('Destructive'))
        .build()
        .stream('Go'),
    );
    const decision = events.find((e) => e.type === 'hook-decision');
    expect(decision).toMatchObject({ event: 'PreToolUse', decision: 'block', reason: 'Destructive', changed: false });
    expect(events.map(label)).toContain('tool-result:error:Tool call blocked by a hook: Destructive');
    expect(echo.execute).not.toHaveBeenCalled();
  });

  it('says when a hook changed what an event is about (a rewritten tool input)', async () => {
    const echo = echoTool();
    const events = await drain(
      AgentBuilder.new()
        .withModel(new ScriptedModel([callStep('echo', { text: 'a' }), 'ok']))
        .withTools(echo.tool)
        .onBeforeToolUse((ctx) => ctx.withArgs({ text: 'b' }))
        .build()
        .stream('Go'),
    );
    expect(events.map(label)).toContain('hook:PreToolUse:proceed(changed)');
    expect(events.map(label)).toContain('tool-result:echo: b');
  });

  it('gives no event for a lifecycle event no hook listens to', async () => {
    const events = await drain(AgentBuilder.new().withModel(new ScriptedModel(['ok'])).onStop(() => undefined).build().stream('Hi'));
    expect(events.filter((e) => e.type === 'hook-decision').map((e) => e.type === 'hook-decision' && e.event)).toEqual(['Stop']);
  });

  it('hands out warnings of the run as events', async () => {
    const events = await drain(
      AgentBuilder.new()
        .withModel(new ScriptedModel(['ok']))
        .onExecutionStart(() => HookOutcome.block('cannot block this'))
        .build()
        .stream('Hi'),
    );
    expect(events.map(label)).toContain('warning:ignored-outcome');
  });

  it('wraps a subagent’s events, and ends them with its own run-end', async () => {
    const child = new ScriptedModel(['Child says hi.']);
    const events = await drain(
      AgentBuilder.new()
        .withModel(new ScriptedModel([callStep('helper', { task: 'greet' }), 'Parent done.']))
        .withSubagents(defineSubagent({ name: 'helper', description: 'Helps', model: child }))
        .build()
        .stream('Go'),
    );
    const labels = events.map(label);
    expect(labels).toEqual([
      'step-start:0',
      'model-response:|helper',
      'tool-call:helper',
      'subagent(helper):step-start:0',
      'subagent(helper):text:Child ',
      'subagent(helper):text:says ',
      'subagent(helper):text:hi.',
      'subagent(helper):model-response:Child says hi.|',
      'subagent(helper):step-end:0',
      'subagent(helper):run-end:completed',
      'tool-result:Child says hi.',
      'step-end:0',
      'step-start:1',
      'text:Parent ',
      'text:done.',
      'model-response:Parent done.|',
      'step-end:1',
      'run-end:completed',
    ]);
    const sub = events.find((e) => e.type === 'subagent');
    expect(sub?.type === 'subagent' && sub.agentId).toMatch(/\/helper#1$/);
  });

  it('refuses a text mode it does not know, and a second reader', () => {
    const agent = AgentBuilder.new().withModel(new ScriptedModel(['ok', 'ok'])).build();
    expect(() => agent.stream('Hi', { text: 'fast' as never })).toThrow(/text: 'checked' or 'live', got "fast"/);
    const stream = agent.stream('Hi');
    void stream[Symbol.asyncIterator]();
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/iterated once/);
  });

  it('gives the agent’s own text as a stream of strings with textStream()', async () => {
    const parts: string[] = [];
    const stream = AgentBuilder.new().withModel(new ScriptedModel(['One two three.'])).build().stream('Hi');
    for await (const text of stream.textStream()) parts.push(text);
    expect(parts).toEqual(['One ', 'two ', 'three.']);
    expect((await stream.result).text).toBe('One two three.');
  });
});

describe('agent.stream() and the hooks around the model call', () => {
  const secret = 'The key is sk-live-123 and that is all.';
  const redacting = () =>
    AgentBuilder.new()
      .withModel(new ScriptedModel([secret]))
      .onAfterModel((ctx) => ctx.withResponse({ text: ctx.response.text.replace(/sk-live-\d+/, '[redacted]') }));

  it('checked (the default): holds the text until AfterModel decided, so a redacted secret never reaches the stream', async () => {
    const events = await drain(redacting().build().stream('Key?'));
    expect(texts(events)).toEqual(['The key is [redacted] and that is all.']);
    expect(JSON.stringify(texts(events))).not.toContain('sk-live');
    const response = events.find((e) => e.type === 'model-response');
    expect(response?.type === 'model-response' && response.response.text).toBe('The key is [redacted] and that is all.');
    expect(events.map(label)).toContain('hook:AfterModel:proceed(changed)');
  });

  it('live: hands the text out as the model writes it, and model-response says what stands', async () => {
    const events = await drain(redacting().build().stream('Key?', { text: 'live' }));
    expect(texts(events).join('')).toBe(secret);
    const response = events.find((e) => e.type === 'model-response');
    expect(response?.type === 'model-response' && response.response.text).toBe('The key is [redacted] and that is all.');
  });

  it('checked: a rejected answer is never handed out; only the answer the call made again gives text', async () => {
    const model = new ScriptedModel(['Rude answer.', 'Polite answer.']);
    const events = await drain(
      AgentBuilder.new()
        .withModel(model)
        .onAfterModel((ctx) => (ctx.response.text.startsWith('Rude') ? HookOutcome.block('Be polite.') : undefined))
        .build()
        .stream('Hi'),
    );
    expect(model.callCount).toBe(2);
    expect(texts(events)).toEqual(['Polite answer.']);
    expect(events.map(label).filter((l) => l.startsWith('hook:AfterModel'))).toEqual(['hook:AfterModel:block', 'hook:AfterModel:proceed']);
  });

  it('an answer a BeforeModel hook gives instead of the model: no model call, its text given whole, marked synthetic', async () => {
    const model = new ScriptedModel([]);
    for (const text of ['checked', 'live'] as const) {
      const events = await drain(
        AgentBuilder.new()
          .withModel(model)
          .onBeforeModel(() => 'From the cache.')
          .build()
          .stream('Hi', { text }),
      );
      expect(texts(events)).toEqual(['From the cache.']);
      expect(events.map(label)).toContain('model-response(synthetic):From the cache.|');
    }
    expect(model.callCount).toBe(0);
  });

  it('a BeforeModel hook that only rewrites the request still holds the text in checked mode; the model sees the rewrite', async () => {
    const model = new ScriptedModel(['Bonjour.']);
    const events = await drain(
      AgentBuilder.new()
        .withModel(model)
        .onBeforeModel((ctx) => ctx.withSystem('Answer in French.'))
        .build()
        .stream('Hi'),
    );
    expect(model.requests[0]!.system).toBe('Answer in French.');
    expect(texts(events)).toEqual(['Bonjour.']);
    expect(events.map(label)).toContain('hook:BeforeModel:proceed(changed)');
  });

  it('BeforeToolSelection narrows the tools of a streamed call as of a run', async () => {
    const model = new ScriptedModel(['ok']);
    await drain(
      AgentBuilder.new()
        .withModel(model)
        .withTools(echoTool().tool, echoTool('other').tool)
        .onBeforeToolSelection((ctx) => ctx.withToolConfig({ mode: 'auto', allowedFunctionNames: ['echo'] }))
        .build()
        .stream('Hi'),
    );
    expect(model.requests[0]!.tools.map((t) => t.name)).toEqual(['echo']);
  });
});

describe('cancelling a streamed run', () => {
  it('leaving the loop aborts the run: the model stops streaming, AgentFailed and ExecutionEnd fire, result rejects', async () => {
    const seen: string[] = [];
    const model = new ScriptedModel(['one two three four five six seven eight nine ten'], { delayMs: 5 });
    const stream = AgentBuilder.new()
      .withModel(model)
      .onAgentFailed((ctx) => void seen.push(`AgentFailed:${ctx.error instanceof Error ? ctx.error.name : '?'}`))
      .onExecutionEnd((ctx) => void seen.push(`ExecutionEnd:${ctx.status}`))
      .build()
      .stream('Count');
    const got: string[] = [];
    for await (const event of stream) {
      if (event.type === 'text-delta') got.push(event.text);
      if (got.length === 2) break;
    }
    const error = await stream.result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamCancelledError);
    expect((error as Error).name).toBe('AbortError');
    expect(got).toEqual(['one ', 'two ']);
    expect(seen).toEqual(['AgentFailed:AbortError', 'ExecutionEnd:failed']);
  });

  it('cancel(reason) fails the run with that reason; the caller’s own signal cancels it too', async () => {
    const slow = () => new ScriptedModel(['a b c d e f g h'], { delayMs: 20 });
    const first = AgentBuilder.new().withModel(slow()).build().stream('Hi');
    first.cancel(new Error('user pressed escape'));
    await expect(first.result).rejects.toThrow('user pressed escape');
    expect(await drain(first)).toEqual([]);

    const controller = new AbortController();
    const second = AgentBuilder.new().withModel(slow()).build().stream('Hi', { signal: controller.signal, rejectOnFailure: false });
    setTimeout(() => controller.abort(new Error('timed out')), 30);
    const events = await drain(second);
    const end = events.at(-1);
    expect(end?.type === 'run-end' && end.result.status).toBe('failed');
    expect((await second.result).status).toBe('failed');
  });

  it('kills a script hook that is running when the consumer stops reading, and runs no tool', async () => {
    const { dir, cleanup } = await tempDir('agent-hooks-stream-');
    cleanups.push(cleanup);
    const folder = join(dir, '.agents', 'hooks', 'slow-guard');
    await mkdir(join(folder, 'scripts'), { recursive: true });
    await writeFile(join(folder, 'HOOK.md'), '---\nname: slow-guard\ndescription: a slow guard\ntrigger: pre-tool-call\ntimeout: 60000\n---\n');
    // The guard records its pid, then takes a minute: only a kill ends it sooner.
    await writeExecutable(join(folder, 'scripts', 'run'), `#!/bin/sh\ncat > /dev/null\necho $$ > "${join(dir, 'pid')}"\nsleep 60\n`);
    const ran: unknown[] = [];
    const bash = defineTool({ name: 'bash', input: z.object({ command: z.string() }), execute: (input) => (ran.push(input), 'ran') });
    const stream = AgentBuilder.new()
      .withModel(new ScriptedModel([callStep('bash', { command: 'ls' }), 'never']))
      .withTools(bash)
      .withHooksFrom({ projectDir: dir, trust: 'all', userDir: false })
      .build()
      .stream('Go');

    const pidFile = join(dir, 'pid');
    const started = Date.now();
    for await (const event of stream) {
      if (event.type !== 'tool-call') continue;
      // The hook's process is running once it has written its pid.
      while (!existsSync(pidFile) && Date.now() - started < 20_000) await sleep(20);
      break;
    }
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    await expect(stream.result).rejects.toBeInstanceOf(StreamCancelledError);
    expect(alive(pid)).toBe(false);
    expect(ran).toEqual([]);
  });
});

/** Whether a process with `pid` still runs (a zombie reaped by now counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('a model whose stream fails', () => {
  it('fails the run as a failing generate does: run-end says failed, the iteration ends, result rejects', async () => {
    const model: Model = {
      generate: () => ({ text: 'unused' }),
      async *stream(): AsyncGenerator<ModelStreamPart> {
        yield { type: 'text-delta', text: 'Half ' };
        throw new Error('connection reset');
      },
    };
    const stream = AgentBuilder.new().withModel(model).build().stream('Hi');
    const events = await drain(stream);
    expect(events.map(label)).toEqual(['step-start:0', 'text:Half ', 'run-end:failed']);
    await expect(stream.result).rejects.toThrow('connection reset');
  });

  it('refuses a text-delta without a string', async () => {
    const model: Model = {
      generate: () => ({}),
      async *stream(): AsyncGenerator<ModelStreamPart> {
        yield { type: 'text-delta', text: 42 as never };
      },
    };
    await expect(AgentBuilder.new().withModel(model).build().stream('Hi').result).rejects.toThrow(/text-delta whose text is number/);
  });
});

describe('session.stream()', () => {
  it('streams each turn of one conversation, in call order, SessionStart on the first only', async () => {
    const model = new ScriptedModel(['First answer.', 'Second answer.']);
    const seen: string[] = [];
    const session = AgentBuilder.new()
      .withModel(model)
      .onSessionStart(() => void seen.push('SessionStart'))
      .build()
      .session();
    const first = session.stream('One');
    const second = session.stream('Two');
    const [a, b] = await Promise.all([drain(first), drain(second)]);
    expect(texts(a).join('')).toBe('First answer.');
    expect(texts(b).join('')).toBe('Second answer.');
    expect(session.messages.map((m) => m.content)).toEqual(['One', 'First answer.', 'Two', 'Second answer.']);
    expect(seen).toEqual(['SessionStart']);
    // The second turn saw the first one.
    expect(model.requests[1]!.messages.map((m) => m.content)).toEqual(['One', 'First answer.', 'Two']);
    await session.close();
    expect(() => session.stream('Three')).toThrow(/is closed/);
  });
});

describe('streamed and plain runs decide alike', () => {
  it('for any script of tool calls and hooks that block, rewrite and gate: the same messages and status', async () => {
    const step = fc.oneof(
      fc.string({ maxLength: 12 }).map((text) => ({ text })),
      // Ids given, so that the two runs' conversations can be compared as they are.
      fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 }).map((args) => callsStep(...args.map((text, i) => ['echo', { text }, `call-${i}`] as [string, Record<string, unknown>, string]))),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 4 }),
        fc.record({ block: fc.constantFrom('a', 'b', 'none'), rewrite: fc.boolean(), redact: fc.boolean(), gate: fc.boolean(), live: fc.boolean() }),
        async (script, hooks) => {
          const build = () => {
            let gated = false;
            const builder = AgentBuilder.new()
              .withModel(new ScriptedModel([...script, 'Final.', 'Final.']))
              .withTools(echoTool().tool)
              .withMaxSteps(5)
              .onBeforeToolUse((ctx) => (ctx.toolCall.args['text'] === hooks.block ? HookOutcome.block('no') : hooks.rewrite ? ctx.withArgs({ text: 'x' }) : undefined));
            if (hooks.redact) builder.onAfterModel((ctx) => ctx.withResponse({ text: ctx.response.text.toUpperCase(), toolCalls: ctx.response.toolCalls }));
            if (hooks.gate) builder.onStop(() => (gated ? undefined : ((gated = true), HookOutcome.block('Once more.'))));
            return builder.build();
          };
          const plain = await build().run('Go');
          const stream = build().stream('Go', { text: hooks.live ? 'live' : 'checked' });
          const events = await drain(stream);
          const streamed = await stream.result;
          expect(streamed.messages).toEqual(plain.messages);
          expect(streamed.status).toBe(plain.status);
          if (!hooks.live) {
            // Checked text is the steps' final text, whatever the hooks did to it.
            expect(texts(events).join('')).toBe(streamed.steps.map((s) => s.text).join(''));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

// Keeps a reference to the type, so the test fails to compile when ModelRequest stops being exported.
export type { ModelRequest };
