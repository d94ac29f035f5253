/**
 * Scripted AI SDK models for the integration tests: `MockLanguageModelV3` from `ai/test` playing a list of answers.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { writeExecutable } from '../support/script-fixture.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

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

/** The tool results of a recorded provider prompt, as `toolName: output`. */
export function toolResults(prompt: MockLanguageModelV3['doGenerateCalls'][number]['prompt']): string[] {
  return prompt.flatMap((m) =>
    m.role === 'tool'
      ? m.content.flatMap((p) => (p.type === 'tool-result' ? [`${p.toolName}: ${'value' in p.output ? String(p.output.value) : p.output.type}`] : []))
      : [],
  );
}

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
