/**
 * Whatever a hook process answers — any exit, any stdout, any stderr — every dialect comes to a decision on every
 * event, and a dispatch through a stack of real command hooks resolves with an outcome.
 */
import fc from 'fast-check';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommandHook,
  DIALECT_NAMES,
  dialectNamed,
  HookEvent,
  HookOutcome,
  HookStack,
  sampleContext,
  type AnyHookContext,
  type HookEventName,
  type WireDialect,
} from 'agent-hooks';
import type { ProcessResult } from '../../src/process/run-process.js';
import { exited, tempDir } from '../support/script-fixture.js';
import { sized } from '../support/size.js';

const DIALECTS: readonly WireDialect[] = DIALECT_NAMES.map((name) => dialectNamed(name)!);
const EVENTS: readonly HookEventName[] = HookEvent.all;

/** Every key a dialect reads, at the top level or nested, and keys that trip up careless object handling. */
const REAL_KEYS = [
  'decision', 'reason', 'continue', 'stopReason', 'stop_reason', 'systemMessage', 'system_message', 'suppressOutput',
  'hookSpecificOutput', 'hookEventName', 'permissionDecision', 'permissionDecisionReason', 'updatedInput', 'additionalContext',
  'additional_context', 'modified_input', 'modifiedArgs', 'modifiedResult', 'updatedMCPToolOutput', 'tool_input', 'behavior',
  'message', 'permission', 'user_message', 'agent_message', 'updated_input', 'followup_message',
  // Gemini CLI's model events.
  'llm_request', 'llm_response', 'toolConfig', 'messages', 'config', 'model', 'role', 'content', 'candidates', 'parts', 'text',
  'temperature', 'topK', 'mode', 'allowedFunctionNames',
  // The HOOK.md answer on the model events.
  'modified_request', 'response', 'system', 'tools', 'settings', 'toolCalls', 'usage', 'maxTokens', 'name', 'args', 'id',
];
const TRAP_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', ''];
const CHOICES = ['allow', 'deny', 'block', 'ask', 'approve', 'proceed', 'stop', 'continue', 'Allow', 'DENY', ' deny ', 'user', 'model', 'system', 'ANY', 'NONE', 'AUTO'];

/** Values of any JSON type, with the words dialects look for among the strings. */
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...CHOICES),
    fc.string({ maxLength: 20 }),
    fc.constantFrom(null, true, false, 0, 2, -1, 1e308, ''),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...REAL_KEYS, ...TRAP_KEYS), tie('value'), { maxKeys: 4 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** What a hook might print: real answers with wrong types, broken JSON, binary noise, floods. */
const stdoutText = fc.oneof(
  fc.dictionary(fc.constantFrom(...REAL_KEYS, ...TRAP_KEYS), jsonish, { maxKeys: 6 }).map((o) => JSON.stringify(o)),
  // JSON.stringify drops a `__proto__` own key set by a dictionary, so write one by hand too.
  fc.tuple(fc.constantFrom(...REAL_KEYS), jsonish).map(([key, value]) => `{"__proto__": {"decision": "deny"}, ${JSON.stringify(key)}: ${JSON.stringify(value)}}`),
  fc.json().chain((text) => fc.integer({ min: 0, max: text.length }).map((cut) => text.slice(0, cut))),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString('utf8')),
  fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.constantFrom('', '\n', 'null', '[]', '"deny"', '42', 'true', '{}', '{"decision":"deny"}\n{"decision":"allow"}', '\uFEFF{"decision":"deny"}', '{"continue":false}'),
  fc.tuple(fc.integer({ min: 1, max: 300_000 }), fc.constantFrom('x', '{', '\u00e9', '\n')).map(([n, c]) => c.repeat(n)),
  fc.integer({ min: 1, max: 200_000 }).map((n) => JSON.stringify({ decision: 'deny', reason: 'r'.repeat(n) })),
);

const stderrText = fc.oneof(fc.constant(''), fc.string({ maxLength: 40 }), fc.constantFrom('   ', '\n\n', 'refused'), fc.integer({ min: 1, max: 100_000 }).map((n) => 'e'.repeat(n)));

/** How a process may end: any exit code, a signal, a timeout, an abort, an output flood. */
const processResult = fc
  .record({
    exitCode: fc.oneof(fc.constantFrom(0, 0, 0, 1, 2, 2, 126, 127, 255, null), fc.integer({ min: -5, max: 300 })),
    stdout: stdoutText,
    stderr: stderrText,
    extra: fc.record(
      {
        signal: fc.constantFrom('SIGTERM', 'SIGKILL', null),
        timedOut: fc.boolean(),
        aborted: fc.boolean(),
        overflow: fc.constantFrom('stdout', 'stderr', undefined),
      },
      { requiredKeys: [] },
    ),
  })
  .map(({ exitCode, stdout, stderr, extra }): ProcessResult => exited(exitCode, stdout, stderr, extra as Partial<ProcessResult>));

const hookInfo = fc.record({ name: fc.constantFrom('h', 'guard', ''), failClosed: fc.boolean(), timeoutMs: fc.constantFrom(1000, undefined), maxOutputBytes: fc.constantFrom(1024, undefined) });

function expectDecision(decision: ReturnType<WireDialect['interpret']>, ctx: AnyHookContext): void {
  expect(['proceed', 'block', 'stop', 'ask']).toContain(decision.kind);
  if (decision.kind !== 'proceed') {
    expect(typeof decision.reason).toBe('string');
    expect(decision.reason!.trim()).not.toBe('');
  }
  expect(Array.isArray(decision.additionalContext)).toBe(true);
  for (const text of decision.additionalContext) expect(typeof text).toBe('string');
  if (decision.systemMessage !== undefined) expect(typeof decision.systemMessage).toBe('string');
  for (const note of decision.notes) expect(note.message.trim()).not.toBe('');
  if (decision.ctx !== undefined) expect(decision.ctx.event).toBe(ctx.event);
}

describe('every dialect reads any answer on any event', () => {
  it('interpret never throws and always comes to a decision, with a reason when it blocks, stops or asks', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DIALECTS), fc.constantFrom(...EVENTS), processResult, hookInfo, (dialect, event, result, hook) => {
        const ctx = sampleContext(event);
        expectDecision(dialect.interpret(result, ctx, hook), ctx);
      }),
      { numRuns: sized(1500) },
    );
  });

  it('the payload of any event with any tool input is JSON a process can read', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DIALECTS), fc.constantFrom(...EVENTS), fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 })), (dialect, event, args) => {
        const ctx = sampleContext(event, { tool_name: 'bash', tool_input: args });
        const payload = dialect.payload(ctx, { eventName: dialect.eventName(event), workDir: '/project', hookName: 'h' });
        expect(typeof JSON.parse(JSON.stringify(payload))).toBe('object');
      }),
      { numRuns: sized(300) },
    );
  });
});

describe('a dispatch through real command hooks', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir('agent-hooks-fuzz-')));
  afterAll(() => cleanup());

  it('never rejects and always resolves with an outcome, whatever the process answers', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...DIALECTS),
        fc.constantFrom(...EVENTS),
        fc.oneof(fc.constantFrom(0, 0, 1, 2, 2, 127), fc.integer({ min: 0, max: 255 })),
        stdoutText,
        stderrText,
        fc.boolean(),
        async (dialect, event, code, stdout, stderr, failClosed) => {
          const n = run++;
          await writeFile(join(dir, `out-${n}`), stdout);
          await writeFile(join(dir, `err-${n}`), stderr);
          const hook = new CommandHook({
            name: `fuzz-${n}`,
            command: `cat out-${n}; cat err-${n} >&2; exit ${code}`,
            event,
            eventName: dialect.eventName(event),
            matcher: undefined,
            dialect,
            timeoutMs: 10_000,
            failClosed,
            projectDir: dir,
            origin: { kind: 'claude', level: 'project', file: join(dir, 'settings.json'), field: 'hooks' },
          });
          let reached = false;
          const after = (ctx: AnyHookContext, next: (ctx: AnyHookContext) => unknown) => {
            reached = true;
            return next(ctx);
          };
          const stack = new HookStack().with(hook, 10).with(after as never, 0);
          const ctx = sampleContext(event);
          const outcome = await stack.process(ctx);
          expect(outcome).toBeInstanceOf(HookOutcome);
          if (outcome.isBlocked() || outcome.isStopped()) {
            expect(outcome.reason?.trim()).toBeTruthy();
            expect(reached).toBe(false);
          }
          if (!outcome.isBlocked() && !outcome.isStopped()) expect(reached).toBe(true);
        },
      ),
      { numRuns: sized(40) },
    );
  }, 120_000);
});
