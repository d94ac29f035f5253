/**
 * Scripted AI SDK models for the integration tests: `MockLanguageModelV3` from `ai/test` playing a list of answers.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { writeExecutable } from '../support/script-fixture.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type StreamResult = Awaited<ReturnType<MockLanguageModelV3['doStream']>>;
/** A part of a provider's stream. */
export type ProviderStreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

/** Token usage as a provider reports it. */
export const usage = (input: number, output: number): GenerateResult['usage'] => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

/** A model answer that calls one tool. */
export const toolCallAnswer = (toolName: string, input: Record<string, unknown>, toolCallId = 'call-1', tokens = usage(10, 5)): GenerateResult => ({
  content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage: tokens,
  warnings: [],
});

/** A model answer with text only. */
export const textAnswer = (text: string, tokens = usage(20, 3)): GenerateResult => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: tokens,
  warnings: [],
});

/** A mock model playing `answers` in order (each `doGenerate` call takes the next). */
export const mockModel = (...answers: GenerateResult[]) => new MockLanguageModelV3({ doGenerate: answers });

/**
 * An answer as a provider streams it: its text word by word (each word with the space after it), then its tool calls,
 * then the finish with its usage.
 */
export function streamPartsOf(answer: GenerateResult): ProviderStreamPart[] {
  const parts: ProviderStreamPart[] = [{ type: 'stream-start', warnings: [] }];
  answer.content.forEach((part, i) => {
    if (part.type === 'text') {
      const id = `text-${i}`;
      parts.push({ type: 'text-start', id });
      for (const word of part.text.match(/\S+\s*/g) ?? []) parts.push({ type: 'text-delta', id, delta: word });
      parts.push({ type: 'text-end', id });
    } else if (part.type === 'tool-call') {
      parts.push(part);
    }
  });
  parts.push({ type: 'finish', finishReason: answer.finishReason, usage: answer.usage });
  return parts;
}

/** A mock model streaming `answers` in order (each `doStream` call takes the next), a part every `delayMs`. */
export const mockStreamingModel = (answers: readonly GenerateResult[], delayMs: number | null = null) =>
  new MockLanguageModelV3({ doStream: answers.map((a) => ({ stream: simulateReadableStream({ chunks: streamPartsOf(a), chunkDelayInMs: delayMs }) })) });

/** The tool results of a recorded provider prompt, as `toolName: output`. */
export function toolResults(prompt: MockLanguageModelV3['doGenerateCalls'][number]['prompt']): string[] {
  return prompt.flatMap((m) =>
    m.role === 'tool'
      ? m.content.flatMap((p) =>
          p.type === 'tool-result'
            ? [`${p.toolName}: ${'value' in p.output ? (p.output.type === 'error-text' ? errorText(p.output.value) : String(p.output.value)) : p.output.type}`]
            : [],
        )
      : [],
  );
}

/** A tool failure's text as the model reads it, without the error's name AI SDK 7 puts before the message. */
export const errorText = (value: unknown): string => String(value).replace(/^\w*Error: /, '');

/** A project with `.agents/hooks/<name>/HOOK.md` and an executable `scripts/run` (a `/bin/sh` script) for each hook. */
export async function writeProjectHooks(dir: string, hooks: Record<string, { frontmatter: string; script: string }>): Promise<string> {
  for (const [name, { frontmatter, script }] of Object.entries(hooks)) {
    const folder = join(dir, '.agents', 'hooks', name);
    await mkdir(join(folder, 'scripts'), { recursive: true });
    await writeFile(join(folder, 'HOOK.md'), `---\nname: ${name}\ndescription: a test hook\n${frontmatter}\n---\n# ${name}\n`);
    await writeExecutable(join(folder, 'scripts', 'run'), `#!/bin/sh\n${script}\n`);
  }
  return dir;
}
