/**
 * The request of a model call is made once per attempt and shared by the hooks of BeforeModel, BeforeToolSelection and
 * AfterModel until one of them rewrites it: a property test that this sharing is, to every hook and to the model, the
 * same as copying the request for each hook. Arbitrary chains of BeforeModel hooks (each reads, or rewrites one part)
 * and BeforeToolSelection hooks (each reads, or narrows) run through a real agent; a plain model of the same
 * rewrites, applied to copies, says what each hook must see and what the model must receive.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentBuilder, AgentState, ModelHookContext, ScriptedModel, type Message, type ModelCallRequest } from 'agent-hooks';
import { echoTool } from './support.js';

type Rewrite =
  | { readonly kind: 'read' }
  | { readonly kind: 'system'; readonly text: string }
  | { readonly kind: 'append'; readonly text: string }
  | { readonly kind: 'settings'; readonly temperature: number }
  | { readonly kind: 'allow'; readonly names: readonly string[] }
  | { readonly kind: 'remove'; readonly names: readonly string[] };

const TOOLS = ['echo', 'read', 'write'];
const names = fc.subarray(TOOLS);
const beforeModel = fc.oneof(
  fc.constant<Rewrite>({ kind: 'read' }),
  fc.string({ maxLength: 8 }).map((text): Rewrite => ({ kind: 'system', text })),
  fc.string({ maxLength: 8 }).map((text): Rewrite => ({ kind: 'append', text })),
  fc.integer({ min: 0, max: 10 }).map((t): Rewrite => ({ kind: 'settings', temperature: t / 10 })),
);
const beforeToolSelection = fc.oneof(
  fc.constant<Rewrite>({ kind: 'read' }),
  names.map((n): Rewrite => ({ kind: 'allow', names: n })),
  names.map((n): Rewrite => ({ kind: 'remove', names: n })),
);

/** What a hook or the model can tell of a request: its parts, by value. */
interface Seen {
  readonly system: string | undefined;
  readonly messages: readonly string[];
  readonly tools: readonly string[];
  readonly temperature: number | undefined;
}

/** The reference: the request as plain data, each rewrite applied to a copy. */
interface Plain {
  system: string | undefined;
  messages: string[];
  tools: string[];
  allowed: string[] | undefined;
  temperature: number | undefined;
}

function applyPlain(request: Plain, rewrite: Rewrite): Plain {
  const copy: Plain = { ...request, messages: [...request.messages], tools: [...request.tools], allowed: request.allowed === undefined ? undefined : [...request.allowed] };
  const offered = () => copy.allowed ?? copy.tools;
  switch (rewrite.kind) {
    case 'read':
      return copy;
    case 'system':
      return { ...copy, system: rewrite.text };
    case 'append':
      return { ...copy, messages: [...copy.messages, rewrite.text] };
    case 'settings':
      return { ...copy, temperature: rewrite.temperature };
    case 'allow':
      return { ...copy, allowed: offered().filter((n) => rewrite.names.includes(n)) };
    case 'remove':
      return { ...copy, allowed: offered().filter((n) => !rewrite.names.includes(n)) };
  }
}

const seenOfPlain = (p: Plain): Seen => ({ system: p.system, messages: p.messages, tools: p.allowed ?? p.tools, temperature: p.temperature });

const seenOf = (ctx: ModelHookContext): Seen => ({
  system: ctx.request.system,
  messages: ctx.request.messages.map((m) => m.content),
  tools: ctx.allowedTools.map((t) => t.name),
  temperature: ctx.request.settings?.temperature,
});

// The with… methods return `this`, which over the union of the three events is that union: cast back to the caller's.
function applyCtx<C extends ModelHookContext>(ctx: C, rewrite: Rewrite): C {
  switch (rewrite.kind) {
    case 'read':
      // Reads every part, and hands the very same context on.
      void [ctx.request.system, ctx.request.messages.length, ctx.request.tools.length, ctx.request.settings];
      return ctx;
    case 'system':
      return ctx.withSystem(rewrite.text) as C;
    case 'append':
      return ctx.withMessages([...ctx.request.messages, { role: 'system', content: rewrite.text } satisfies Message]) as C;
    case 'settings':
      return ctx.withSettings({ temperature: rewrite.temperature }) as C;
    case 'allow':
      return ctx.allowTools(...rewrite.names) as C;
    case 'remove':
      return ctx.removeTools(...rewrite.names) as C;
  }
}

const toolsNamed = (...names: string[]) => names.map((name) => echoTool(name).tool);

/** A BeforeModel context made by hand, outside a run. */
const beforeModelOf = (request: ModelCallRequest): ModelHookContext<'BeforeModel'> => ModelHookContext.beforeModel({ state: AgentState.create(), metadata: {}, stepIndex: 0, request });

describe('the request shared by the model events’ hooks', () => {
  it('is, to every hook and to the model, what copying it for each hook would be', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(beforeModel, { maxLength: 5 }), fc.array(beforeToolSelection, { maxLength: 4 }), async (modelHooks, selectionHooks) => {
        const model = new ScriptedModel(['Done.']);
        const seen: { event: string; seen: Seen; request: ModelCallRequest; previous: ModelCallRequest | undefined }[] = [];
        let previous: ModelCallRequest | undefined;
        let builder = AgentBuilder.new().withModel(model).withSystemPrompt('Be brief.').withTools(...toolsNamed(...TOOLS));
        for (const rewrite of modelHooks) {
          builder = builder.onBeforeModel((ctx) => {
            seen.push({ event: 'BeforeModel', seen: seenOf(ctx), request: ctx.request, previous });
            const next = applyCtx(ctx, rewrite);
            previous = next.request;
            return next;
          });
        }
        for (const rewrite of selectionHooks) {
          builder = builder.onBeforeToolSelection((ctx) => {
            seen.push({ event: 'BeforeToolSelection', seen: seenOf(ctx), request: ctx.request, previous });
            const next = applyCtx(ctx, rewrite);
            previous = next.request;
            return next;
          });
        }
        builder = builder.onAfterModel((ctx) => {
          seen.push({ event: 'AfterModel', seen: seenOf(ctx), request: ctx.request, previous });
        });
        const result = await builder.build().run('Hello');
        expect(result.status).toBe('completed');

        // The reference: the same rewrites, each on a copy.
        let plain: Plain = { system: 'Be brief.', messages: ['Hello'], tools: [...TOOLS], allowed: undefined, temperature: undefined };
        const expected: Seen[] = [];
        for (const rewrite of modelHooks) {
          expected.push(seenOfPlain(plain));
          plain = applyPlain(plain, rewrite);
        }
        for (const rewrite of selectionHooks) {
          expected.push(seenOfPlain(plain));
          plain = applyPlain(plain, rewrite);
        }
        expected.push(seenOfPlain(plain));
        expect(seen.map((s) => s.seen)).toEqual(expected);

        // The model receives the request as the hooks left it.
        const sent = model.requests[0]!;
        expect({ system: sent.system, messages: sent.messages.map((m) => m.content), tools: sent.tools.map((t) => t.name), temperature: sent.settings?.temperature }).toEqual(seenOfPlain(plain));
        // A rewrite changes this call only: the conversation is as it would be without hooks.
        expect(result.messages.map((m) => m.content)).toEqual(['Hello', 'Done.']);

        // A hook that only reads hands the next one the same request, and every request a hook sees is frozen.
        for (const s of seen) {
          expect(Object.isFrozen(s.request)).toBe(true);
          if (s.previous !== undefined) expect(s.request).toBe(s.previous);
        }
        // The first hook's request holds the conversation itself, not a copy of it.
        if (seen.length > 0) expect(seen[0]!.request.messages).toEqual(result.messages.slice(0, 1));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps a request a caller made and did not freeze as the caller made it, and copies it once', () => {
    fc.assert(
      fc.property(fc.array(beforeModel, { maxLength: 5 }), fc.string({ maxLength: 8 }), (rewrites, system) => {
        const own = { system, messages: [{ role: 'user' as const, content: 'Hi' }], tools: [] };
        const ctx = beforeModelOf(own);
        let last: ModelHookContext<'BeforeModel'> = ctx;
        for (const rewrite of rewrites) last = applyCtx(last, rewrite);
        // The caller's object is neither frozen nor changed; the context's is a frozen copy.
        expect(Object.isFrozen(own)).toBe(false);
        expect(own.system).toBe(system);
        expect(ctx.request).not.toBe(own);
        expect(ctx.request).toEqual(own);
        expect(Object.isFrozen(ctx.request)).toBe(true);
        // A frozen request is kept as it is: no copy.
        const frozen = Object.freeze({ ...own });
        expect(beforeModelOf(frozen).request).toBe(frozen);
      }),
    );
  });
});
