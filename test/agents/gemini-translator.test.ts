/**
 * The Gemini dialect's model-event translation against Gemini CLI's own: the pinned CLI's `HookTranslatorGenAIv1`,
 * hook output classes and `HookAggregator`, taken from its installed bundle by their source markers and run here, on
 * random requests, rewrites, answers and tool selections. Where the two agree, a Gemini hook makes the same change in
 * a run of ours as in Gemini CLI.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ModelHookContext, selectedTools, ToolCall, type Message, type ModelCallRequest } from '../../src/core/index.js';
import { applyGeminiLlmRequest, geminiLlmRequest, readGeminiLlmResponse, readGeminiToolConfig } from '../../src/dialects/gemini-llm.js';
import { selectAsGemini } from '../../src/dialects/gemini-tool-selection.js';
import { agentsDir } from './support/harness.js';

interface GeminiHooks {
  translator: { toHookLLMRequest(request: unknown): { model: string; messages: unknown[]; config: Record<string, unknown> } };
  BeforeModelHookOutput: new (data: unknown) => { applyLLMRequestModifications(target: unknown): { contents: unknown[]; config?: Record<string, unknown> }; getSyntheticResponse(): unknown };
  AfterModelHookOutput: new (data: unknown) => { getModifiedResponse(): unknown };
  BeforeToolSelectionHookOutput: new (data: unknown) => { applyToolConfigModifications(target: unknown): { toolConfig?: { functionCallingConfig?: { mode?: string; allowedFunctionNames?: string[] } } } };
  aggregator: { mergeOutputs(outputs: unknown[], event: string): unknown };
  getResponseText(response: unknown): string | null;
}

/** The text between two source markers of Gemini CLI's bundle. */
function section(source: string, from: string, to: string): string {
  const start = source.indexOf(from);
  const end = source.indexOf(to, start + from.length);
  if (start < 0 || end < 0) throw new Error(`Gemini CLI's bundle has no section from '${from}' to '${to}': the pinned version's layout changed.`);
  return source.slice(start, end);
}

/** Gemini CLI's own hook translation and aggregation, out of the installed bundle. */
function loadGemini(): GeminiHooks {
  const bundle = join(agentsDir(), 'node_modules', '@google', 'gemini-cli', 'bundle');
  const marker = '// packages/core/src/hooks/hookTranslator.ts';
  const file = readdirSync(bundle)
    .filter((name) => name.startsWith('chunk-'))
    .map((name) => join(bundle, name))
    .find((path) => readFileSync(path, 'utf8').includes(marker));
  if (file === undefined) throw new Error(`No chunk of ${bundle} holds ${marker}.`);
  const source = readFileSync(file, 'utf8');
  const code = [
    section(source, 'function getResponseText(response) {', '\nasync function flatMapTextParts'),
    section(source, marker, '// packages/core/src/context/chatCompressionService.ts'),
    section(source, '// packages/core/src/hooks/hookAggregator.ts', '// packages/core/src/hooks/hookPlanner.ts'),
  ].join('\n');
  const FunctionCallingConfigMode = { AUTO: 'AUTO', ANY: 'ANY', NONE: 'NONE', VALIDATED: 'VALIDATED', MODE_UNSPECIFIED: 'MODE_UNSPECIFIED' };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the pinned agent's own code, read from its install.
  const make = new Function(
    'DEFAULT_GEMINI_FLASH_MODEL',
    'FunctionCallingConfigMode',
    `${code}\nreturn { translator: defaultHookTranslator, BeforeModelHookOutput, AfterModelHookOutput, BeforeToolSelectionHookOutput, aggregator: new HookAggregator(), getResponseText };`,
  );
  return make('gemini-flash-default', FunctionCallingConfigMode) as GeminiHooks;
}

const gemini = loadGemini();

/**
 * A conversation of ours as Gemini holds it: one content per message, its text (none when empty) and then its function
 * calls — whatever its role, as Gemini keeps a content's calls when a hook gives it another role.
 */
function contentsOf(messages: readonly Message[]): unknown[] {
  return messages.map((m) => {
    if (m.role === 'tool') return { role: 'user', parts: [{ functionResponse: { name: m.name ?? 'tool', response: { output: m.content } } }] };
    const parts = [...(m.content === '' ? [] : [{ text: m.content }]), ...(m.toolCalls ?? []).map((c) => ({ functionCall: { name: c.name, args: c.args } }))];
    return { role: m.role === 'assistant' ? 'model' : m.role, parts };
  });
}

const words = fc.constantFrom('', 'hi', 'Run it.', 'done', 'über', '<b>x</b>');
const call = fc.record({ name: fc.constantFrom('run_shell_command', 'read_file'), args: fc.constantFrom({}, { command: 'ls' }) }).map(({ name, args }) => new ToolCall(name, args));
const message: fc.Arbitrary<Message> = fc.oneof(
  fc.record({ role: fc.constant('user' as const), content: words }),
  fc.record({ role: fc.constant('system' as const), content: words }),
  fc.record({ role: fc.constant('assistant' as const), content: words, toolCalls: fc.array(call, { maxLength: 2 }) }),
  fc.record({ role: fc.constant('tool' as const), content: words, toolCallId: fc.constant('c1'), name: fc.constant('read_file') }),
);
const settings = fc.record({ temperature: fc.option(fc.constantFrom(0, 0.5, 1), { nil: undefined }), maxTokens: fc.option(fc.constantFrom(64, 1024), { nil: undefined }), topP: fc.option(fc.constantFrom(0.9, 0.95), { nil: undefined }) });
const requestArb = fc.record({ messages: fc.array(message, { maxLength: 6 }), settings }).map(({ messages, settings }): ModelCallRequest => ({ system: undefined, messages, tools: [], settings }));
const sdkConfig = (request: ModelCallRequest) => ({ temperature: request.settings?.temperature, maxOutputTokens: request.settings?.maxTokens, topP: request.settings?.topP });
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

describe('Gemini CLI 0.61’s own translator and ours', () => {
  it('write the same llm_request for a request: the model, the text messages and the settings', () => {
    fc.assert(
      fc.property(requestArb, (request) => {
        const theirs = gemini.translator.toHookLLMRequest({ model: 'gemini-2.5-flash', contents: contentsOf(request.messages), config: sdkConfig(request) });
        expect(JSON.parse(JSON.stringify(geminiLlmRequest(request, 'gemini-2.5-flash')))).toEqual(JSON.parse(JSON.stringify(theirs)));
      }),
      { numRuns: 500 },
    );
  });

  it('apply a hook’s llm_request alike: its messages laid over the conversation, its config over the settings', () => {
    const hookMessage = fc.record({ role: fc.constantFrom('user', 'model', 'system'), content: fc.constantFrom('NEW', 'Sign it.', 'x') });
    const hookConfig = fc.record({ temperature: fc.option(fc.constantFrom(0, 0.3), { nil: undefined }), maxOutputTokens: fc.option(fc.constant(10), { nil: undefined }), topP: fc.option(fc.constant(0.5), { nil: undefined }) });
    const hookRequest = fc.record({ messages: fc.option(fc.array(hookMessage, { maxLength: 6 }), { nil: undefined }), config: fc.option(hookConfig, { nil: undefined }) });
    fc.assert(
      fc.property(requestArb, hookRequest, (base, given) => {
        const sdk = { model: 'm', contents: contentsOf(base.messages), config: sdkConfig(base) };
        const theirs = new gemini.BeforeModelHookOutput({ hookSpecificOutput: { llm_request: given } }).applyLLMRequestModifications(sdk);
        const ignored: string[] = [];
        const ours = applyGeminiLlmRequest(given, base, 'm', 'llm_request', (field) => ignored.push(field)) ?? base;
        expect(ignored).toEqual([]);
        expect(contentsOf(ours.messages)).toEqual(theirs.contents);
        // Gemini CLI assigns the four settings of its result over the call's: one left undefined is cleared.
        const assigned = { ...sdkConfig(base), ...(given.config === undefined ? {} : theirs.config) };
        expect(defined(sdkConfig(ours))).toEqual(defined({ temperature: assigned.temperature, maxOutputTokens: assigned.maxOutputTokens, topP: assigned.topP }));
      }),
      { numRuns: 500 },
    );
  });

  it('read the same text from a hook’s llm_response, on BeforeModel (with a deny) and on AfterModel', () => {
    const candidate = fc.record({ content: fc.record({ role: fc.constant('model'), parts: fc.array(words, { maxLength: 3 }) }), finishReason: fc.option(fc.constant('STOP'), { nil: undefined }) });
    fc.assert(
      fc.property(fc.record({ candidates: fc.array(candidate, { maxLength: 2 }) }), (response) => {
        const ours = readGeminiLlmResponse(response, 'llm_response', () => {
          throw new Error('refused a readable answer');
        });
        const synthetic = new gemini.BeforeModelHookOutput({ decision: 'deny', hookSpecificOutput: { llm_response: response } }).getSyntheticResponse();
        expect(ours?.text ?? '').toBe(gemini.getResponseText(synthetic) ?? '');
        const replaced = new gemini.AfterModelHookOutput({ hookSpecificOutput: { llm_response: response } }).getModifiedResponse();
        // null: Gemini CLI keeps the model's chunk.
        expect(ours === null ? undefined : ours?.text).toBe(replaced === undefined ? undefined : (gemini.getResponseText(replaced) ?? ''));
      }),
      { numRuns: 300 },
    );
  });

  it('come to the same tool selection from several BeforeToolSelection hooks: the union Gemini CLI’s aggregator makes', () => {
    const TOOLS = ['run_shell_command', 'read_file', 'web_fetch', 'glob'];
    const toolConfig = fc.record({ mode: fc.option(fc.constantFrom('AUTO', 'ANY', 'NONE'), { nil: undefined }), allowedFunctionNames: fc.option(fc.subarray(TOOLS), { nil: undefined }) });
    // A hook that printed nothing, one that printed an answer without a selection, one with a selection.
    const output = fc.oneof(fc.constant(undefined), fc.constant({ systemMessage: 'hi' }), toolConfig.map((c) => ({ hookSpecificOutput: { toolConfig: c } })));
    fc.assert(
      fc.property(fc.array(output, { maxLength: 4 }), (outputs) => {
        const printed = outputs.filter((o) => o !== undefined);
        const merged = gemini.aggregator.mergeOutputs(printed, 'BeforeToolSelection');
        const applied = merged === undefined ? {} : new gemini.BeforeToolSelectionHookOutput(merged).applyToolConfigModifications({ toolConfig: undefined, tools: [] });
        const fcc = applied.toolConfig?.functionCallingConfig;
        const theirs = fcc?.mode === 'NONE' ? [] : fcc?.allowedFunctionNames?.length ? TOOLS.filter((t) => fcc.allowedFunctionNames!.includes(t)) : TOOLS;

        let ctx = ModelHookContext.beforeToolSelection({ stepIndex: 0, request: { system: undefined, messages: [], tools: TOOLS.map((name) => ({ name, description: name, inputSchema: {} })) } });
        for (const o of outputs) {
          const given = (o as { hookSpecificOutput?: { toolConfig?: unknown } } | undefined)?.hookSpecificOutput?.toolConfig;
          const selection = given === undefined ? undefined : readGeminiToolConfig(given, 'toolConfig', () => {});
          if (selection !== undefined) ctx = selectAsGemini(ctx, selection);
        }
        expect(selectedTools(ctx.request).map((t) => t.name)).toEqual(theirs);
        expect(ctx.request.toolConfig?.mode ?? 'auto').toBe((fcc?.mode ?? 'AUTO').toLowerCase());
      }),
      { numRuns: 1000 },
    );
  });
});
