/**
 * `agent-hooks/opencode` in-process, fed the inputs OpenCode 1.18.33 hands a plugin (test/agents/fixtures/opencode/):
 * what the binaries cannot show headless (a Stop hook's warning, SessionStart once per session, a prompt rewrite, a
 * skipped untrusted hook said where the user sees it). test/agents/opencode.test.ts runs the same plugin inside the
 * real binaries.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HookOutcome, type HookRegistration } from 'agent-hooks';
import { createAgentHooksPlugin, type OpenCodeChatOutput, type OpenCodeHooks } from 'agent-hooks/opencode';
import { scriptHook, tempProject } from './support/cli.js';

const fixture = <T>(name: string): T => JSON.parse(readFileSync(join(import.meta.dirname, 'agents', 'fixtures', 'opencode', '1.18.33', `${name}.json`), 'utf8')) as T;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

/** The plugin over a fresh project with `hooks` of your own, its warnings collected from stderr and OpenCode's log. */
async function load(hooks: HookRegistration[], hookmd?: (dir: string) => Promise<void>): Promise<{ plugin: OpenCodeHooks; stderr: string[]; logged: string[]; dir: string }> {
  const project = await tempProject();
  cleanups.push(project.cleanup);
  await hookmd?.(project.hooks);
  const stderr: string[] = [];
  const logged: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((text) => (stderr.push(String(text)), true));
  const home = join(project.dir, 'home');
  await mkdir(home, { recursive: true });
  const plugin = await createAgentHooksPlugin({ hooks, sources: { hookmd: true, homeDir: home, userDir: join(home, 'no-hooks') } })({
    directory: project.dir,
    client: { app: { log: ({ body }) => logged.push(body.message) } },
  });
  return { plugin, stderr, logged, dir: project.dir };
}

const chat = (): { input: { sessionID: string }; output: OpenCodeChatOutput } => fixture('chat.message');

describe('agent-hooks/opencode', () => {
  it('skips an untrusted project hook, saying so on stderr and in OpenCode’s log, and the call runs', async () => {
    const { plugin, stderr, logged } = await load([], (hooks) => scriptHook(hooks, 'no-touch', { matcher: { tool: 'Shell' } }, 'exit 2').then(() => {}));
    const { input, output } = fixture<{ input: { tool: string; sessionID: string; callID: string }; output: { args: Record<string, unknown> } }>('tool.execute.before');
    await expect(plugin['tool.execute.before'](input, output)).resolves.toBeUndefined();
    for (const said of [stderr.join(''), logged.join('\n')]) {
      expect(said).toContain('no-touch');
      expect(said).toContain("run 'npx agent-hooks trust'");
    }
  });

  it('runs SessionStart at a session’s first message only, and adds each context as a synthetic part after the user’s text', async () => {
    const seen: string[] = [];
    const { plugin } = await load([
      (ctx, next) => {
        seen.push(ctx.event);
        if (ctx.event === 'SessionStart') return HookOutcome.proceed(ctx, { additionalContext: 'SESSION-CONTEXT' });
        if (ctx.event === 'UserPromptSubmit') return HookOutcome.proceed(ctx, { additionalContext: 'PROMPT-CONTEXT' });
        return next(ctx);
      },
    ]);
    const first = chat();
    await plugin['chat.message'](first.input, first.output);
    expect(first.output.parts.map((p) => [p.text, p.synthetic ?? false])).toEqual([
      ['"Create recorded.txt."', false],
      ['SESSION-CONTEXT', true],
      ['PROMPT-CONTEXT', true],
    ]);
    // Each part belongs to the message, with an id that sorts after the user's.
    for (const part of first.output.parts) expect(part).toMatchObject({ messageID: first.output.message.id, sessionID: first.output.message.sessionID, type: 'text' });
    expect(String(first.output.parts[1]!.id) > String(first.output.parts[0]!.id)).toBe(true);
    const second = chat();
    await plugin['chat.message'](second.input, second.output);
    expect(seen).toEqual(['SessionStart', 'UserPromptSubmit', 'UserPromptSubmit']);
  });

  it('replaces the user’s text with a rewritten prompt, and rejects a blocked one with its reason', async () => {
    const { plugin, stderr } = await load([
      (ctx, next) => {
        if (ctx.event !== 'UserPromptSubmit') return next(ctx);
        if (ctx.prompt.includes('deploy')) return HookOutcome.block('No deploys from here.');
        return next(ctx.withPrompt(`${ctx.prompt} (in the sandbox)`));
      },
    ]);
    const { input, output } = chat();
    await plugin['chat.message'](input, output);
    expect(output.parts.filter((p) => !p.synthetic).map((p) => p.text)).toEqual(['"Create recorded.txt." (in the sandbox)']);
    const blocked = chat();
    blocked.output.parts[0]!.text = 'deploy now';
    await expect(plugin['chat.message'](blocked.input, blocked.output)).rejects.toThrow('No deploys from here.');
    // OpenCode shows the throw only as a server error: the reason is said where the user sees it.
    expect(stderr.join('')).toContain('agent-hooks: this prompt was rejected: No deploys from here.');
  });

  it('says a Stop hook’s block on session.idle as a warning, since OpenCode reads no answer to it', async () => {
    const { plugin, stderr, logged } = await load([(ctx, next) => (ctx.event === 'Stop' ? HookOutcome.block('Run the tests first.') : next(ctx))]);
    await plugin.event({ event: fixture('session.idle') });
    expect(stderr.join('')).toContain('a Stop hook asked OpenCode to keep working (Run the tests first.), but OpenCode reads no answer to session.idle');
    expect(logged.join('\n')).toContain('Run the tests first.');
  });

  it('replaces a tool’s result with a PostToolUse rewrite, appends context, and tells the model of a stop it cannot obey', async () => {
    const { plugin, stderr } = await load([
      (ctx, next) => {
        if (ctx.event !== 'PostToolUse') return next(ctx);
        if (ctx.toolCall.args['command'] === 'cat .env') return HookOutcome.proceed(ctx.withResult('[redacted]'), { additionalContext: 'Secrets are redacted.' });
        return HookOutcome.stop('Stop here: the build is broken.');
      },
    ]);
    const recorded = fixture<{ input: { tool: string; sessionID: string; callID: string; args: Record<string, unknown> }; output: { title: string; output: string; metadata: unknown } }>('tool.execute.after');
    const secret = { ...recorded.output, output: 'TOKEN=abc' };
    await plugin['tool.execute.after']({ ...recorded.input, args: { command: 'cat .env' } }, secret);
    expect(secret.output).toBe('[redacted]\n\nSecrets are redacted.');
    const stopped = { ...recorded.output };
    await plugin['tool.execute.after'](recorded.input, stopped);
    expect(stopped.output).toBe('(no output)\n\nStop here: the build is broken.');
    expect(stderr.join('')).toContain('OpenCode lets no plugin end its session');
  });

  it('refuses every tool call, saying why, when the hooks cannot be loaded at all, rather than let OpenCode go on without the plugin', async () => {
    const stderr: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => (stderr.push(String(text)), true));
    const project = await tempProject();
    cleanups.push(project.cleanup);
    const plugin = await createAgentHooksPlugin({ hooks: [42 as never], sources: { hookmd: true, homeDir: project.dir } })({ directory: project.dir });
    const { input, output } = fixture<{ input: { tool: string; sessionID: string; callID: string }; output: { args: Record<string, unknown> } }>('tool.execute.before');
    await expect(plugin['tool.execute.before'](input, output)).rejects.toThrow(/agent-hooks could not load this project's hooks \(.+\), so it refuses every tool call/);
    expect(stderr.join('')).toContain("agent-hooks could not load this project's hooks");
  });

  it('refuses a call when a callback of yours throws (onHookError block, the default), naming it', async () => {
    const { plugin } = await load([
      {
        hook: {
          name: 'flaky',
          handle: () => {
            throw new Error('database down');
          },
        },
      },
    ]);
    const { input, output } = fixture<{ input: { tool: string; sessionID: string; callID: string }; output: { args: Record<string, unknown> } }>('tool.execute.before');
    await expect(plugin['tool.execute.before'](input, output)).rejects.toThrow(/database down/);
  });
});
