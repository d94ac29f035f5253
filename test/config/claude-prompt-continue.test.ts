/**
 * Claude Code's prompt hooks and `continueOnBlock`, as Claude Code 2.1.332 runs them headless
 * (test/agents/claude-rules-feedback.test.ts): a refusal (`{"ok": false}`) on PreToolUse or PostToolUse ends the
 * turn; with `continueOnBlock: true`, PreToolUse refuses the call and the turn goes on, and PostToolUse gives the
 * reason beside the kept result as the hook's blocking error.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool, type ModelRequest } from 'agent-hooks';
import { sandbox } from './support.js';

const setup = sandbox();
const PROMPT = 'RULE-JUDGE: refuse every command. $ARGUMENTS';

async function judged(event: 'PreToolUse' | 'PostToolUse', continueOnBlock: boolean | undefined) {
  const { project, write } = await setup();
  const hook = { type: 'prompt', prompt: PROMPT, ...(continueOnBlock !== undefined ? { continueOnBlock } : {}) };
  await write(project, '.claude/settings.json', { hooks: { [event]: [{ matcher: 'Bash', hooks: [hook] }] } });
  const main: ModelRequest[] = [];
  const turns = [{ toolCalls: [{ name: 'Bash', args: { command: 'touch judged.txt' } }] }, 'first answer'];
  const model = new ScriptedModel((request) => {
    if (request.tools.length === 0) return '{"ok": false, "reason": "RULE-JUDGE-REASON"}';
    main.push(request);
    return turns[main.length - 1] ?? 'more';
  });
  let ran = false;
  const bash = defineTool({ name: 'Bash', input: z.object({ command: z.string() }), execute: () => ((ran = true), 'ran it') });
  const agent = AgentBuilder.new().withModel(model).withTools(bash).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false }).build();
  const result = await agent.run('go');
  return { result, main, ran };
}

describe('a Claude Code prompt hook’s refusal, and continueOnBlock', () => {
  it('PreToolUse, by default: the call does not run, and the run ends there', async () => {
    const { result, main, ran } = await judged('PreToolUse', undefined);
    expect(ran).toBe(false);
    expect(main).toHaveLength(1);
    expect(result.status).toBe('stopped');
    expect(result.reason).toBe('RULE-JUDGE-REASON');
  });

  it('PreToolUse, continueOnBlock: the call is refused and the run goes on', async () => {
    const { result, main, ran } = await judged('PreToolUse', true);
    expect(ran).toBe(false);
    expect(main).toHaveLength(2);
    expect(result.status).toBe('completed');
    expect(JSON.stringify(main[1]!.messages)).toContain('RULE-JUDGE-REASON');
  });

  it('PostToolUse, by default: the call ran, and the run ends there', async () => {
    const { result, main, ran } = await judged('PostToolUse', undefined);
    expect(ran).toBe(true);
    expect(main).toHaveLength(1);
    expect(result.status).toBe('stopped');
  });

  it('PostToolUse, continueOnBlock: the result stays, and the reason follows it in Claude Code’s words', async () => {
    const { result, main } = await judged('PostToolUse', true);
    expect(main).toHaveLength(2);
    expect(result.status).toBe('completed');
    const after = main[1]!.messages.slice(-2);
    expect(after[0]).toMatchObject({ role: 'tool', content: 'ran it' });
    expect(after[1]).toEqual({ role: 'system', content: `PostToolUse:Bash hook blocking error from command: "${PROMPT}": [${PROMPT}]: RULE-JUDGE-REASON` });
  });
});
