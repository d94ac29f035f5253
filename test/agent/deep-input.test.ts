/**
 * A tool input nested thousands of levels deep, sent to real HOOK.md guards in real processes: it cannot be serialised
 * for them, so the call is refused — never run because the guard could not look at it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type AgentWarning } from 'agent-hooks';
import { tempDir, writeExecutable } from '../support/script-fixture.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** `depth` objects, each the only member of the one around it; built in a loop, so nothing here recurses. */
export function nested(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** A project with one guard that refuses `rm` and lets the rest through; its matcher as given. */
async function guarded(matcher: string): Promise<string> {
  const { dir, cleanup } = await tempDir('agent-hooks-deep-');
  cleanups.push(cleanup);
  const folder = join(dir, '.agents', 'hooks', 'no-rm');
  await mkdir(join(folder, 'scripts'), { recursive: true });
  await writeFile(join(folder, 'HOOK.md'), `---\nname: no-rm\ndescription: refuses rm\ntrigger: pre-tool-call\nmatcher:\n${matcher}\n---\n# no-rm\n`);
  await writeExecutable(join(folder, 'scripts', 'run'), '#!/bin/sh\ncase "$(cat)" in *rm*) echo "no rm" >&2; exit 2 ;; esac\nexit 0\n');
  return dir;
}

async function runWithDeepArgument(dir: string) {
  const execute = vi.fn((input: { command: string }) => `ran ${input.command}`);
  const model = new ScriptedModel((request) =>
    request.messages.at(-1)?.role === 'tool' ? 'done' : { toolCalls: [{ name: 'bash', args: { command: 'rm -rf /', extra: nested(5000) } }] },
  );
  const agent = AgentBuilder.new()
    .withModel(model)
    .withTools(defineTool({ name: 'bash', input: z.object({ command: z.string() }), execute }))
    // Even where a hook error is ignored, the input must not get through.
    .withOptions({ onHookError: 'ignore' })
    .withHooksFrom({ projectDir: dir, trust: 'all', userDir: false })
    .build();
  const warnings: AgentWarning[] = [];
  agent.events.on('warning', (w) => warnings.push(w));
  const result = await agent.run('go');
  const told = model.requests.at(-1)!.messages.filter((m) => m.role === 'tool').at(-1)?.content;
  return { result, execute, told: String(told), warnings };
}

describe('a tool input nested 5000 levels deep', () => {
  for (const [name, matcher] of [
    ['a tool matcher', '  tool: ^bash$'],
    ['a tool and pattern matcher', '  tool: ^bash$\n  pattern: rm'],
  ] as const) {
    it(`is refused by a fail-open HOOK.md guard with ${name}, with a reason that says why`, async () => {
      const { result, execute, told, warnings } = await runWithDeepArgument(await guarded(matcher));
      expect(result.status).toBe('completed');
      expect(execute).not.toHaveBeenCalled();
      expect(told).toContain("Hook 'no-rm' could not be sent the event as JSON");
      expect(told).toContain('more than 256 levels deep');
      expect(warnings.filter((w) => w.hookName === 'no-rm').map((w) => w.code)).toEqual(['invalid-input']);
    });
  }
});

describe('a tool input nested 5000 levels deep, before a Claude Code prompt hook', () => {
  it('is refused: the model that judges could not be shown it, and says yes to everything else', async () => {
    const { dir, cleanup } = await tempDir('agent-hooks-deep-prompt-');
    cleanups.push(cleanup);
    await mkdir(join(dir, '.claude'));
    await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'prompt', prompt: 'Is this safe? $ARGUMENTS' }] }] } }));
    const execute = vi.fn((input: { command: string }) => `ran ${input.command}`);
    const model = new ScriptedModel((request) => {
      if (request.tools.length === 0) return '{"ok": true}';
      return request.messages.at(-1)?.role === 'tool' ? 'done' : { toolCalls: [{ name: 'bash', args: { command: 'rm -rf /', extra: nested(5000) } }] };
    });
    const agent = AgentBuilder.new()
      .withModel(model)
      .withTools(defineTool({ name: 'bash', input: z.object({ command: z.string() }), execute }))
      .withHooksFrom({ projectDir: dir, trust: 'all', homeDir: false, userDir: false, claude: true })
      .build();
    const result = await agent.run('go');
    expect(result.status).toBe('completed');
    expect(execute).not.toHaveBeenCalled();
    const told = String(model.requests.at(-1)!.messages.filter((m) => m.role === 'tool').at(-1)?.content);
    expect(told).toContain('could not be sent the event as JSON: it nests objects or arrays more than 256 levels deep');
  });
});

describe('an agent config file nested 5000 levels deep', () => {
  it('is a problem naming the file, and loads none of its hooks, rather than failing the load', async () => {
    const { dir, cleanup } = await tempDir('agent-hooks-deep-config-');
    cleanups.push(cleanup);
    await mkdir(join(dir, '.claude'));
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    await writeFile(join(dir, '.claude', 'settings.json'), `{"hooks":{"PreToolUse":[{"matcher":"bash","hooks":[{"type":"command","command":"exit 2","x":${deep}}]}]}}`);
    const agent = AgentBuilder.new()
      .withModel(new ScriptedModel(['done']))
      .withHooksFrom({ projectDir: dir, trust: 'all', homeDir: false, userDir: false, claude: true })
      .build();
    const { problems } = await agent.ready();
    expect(problems).toEqual([expect.objectContaining({ file: join(dir, '.claude', 'settings.json'), code: 'invalid-json', severity: 'error' })]);
    expect(problems[0]!.message).toContain('more than 256 levels deep');
    expect(agent.hooks.all()).toEqual([]);
  });
});
