/**
 * The transcript a Stop gate reads, in Claude Code and in an agent built here: the gate published loop plugins use
 * (`grep '"role":"assistant"' | tail -1 | jq …` on `transcript_path`) holds the agent back until its last answer
 * carries a marker. Claude Code's transcript, as this run writes it, is the fixture
 * test/agents/fixtures/claude/2.1.332/transcript.jsonl (recorded the same way, long strings elided).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinOf } from './support/harness.js';
import { runClaudeScenario, runOurScenario, type ClaudeScenario, type ClaudeScenarioRun, type OurScenarioRun } from './support/claude-scenario.js';

const VERSION = pinOf('claude').version;

const GATE = `#!/bin/bash
input=$(cat)
transcript=$(echo "$input" | jq -r .transcript_path)
n=$(ls "$CLAUDE_PROJECT_DIR"/seen-*.jsonl 2>/dev/null | wc -l)
cp "$transcript" "$CLAUDE_PROJECT_DIR/seen-$n.jsonl"
last=$(grep '"role":"assistant"' "$transcript" | tail -1 | jq -r '.message.content[] | select(.type=="text") | .text')
if echo "$last" | grep -q "MARKER-DONE"; then exit 0; fi
echo '{"decision":"block","reason":"Not done: say MARKER-DONE when you are."}'
`;

describe(`claude ${VERSION}: a Stop gate that reads the last answer from the transcript, and ours`, () => {
  const scenario: ClaudeScenario = {
    files: { 'gate.sh': GATE },
    settings: { hooks: { Stop: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/gate.sh', timeout: 30 }] }] } },
    turns: [{ shell: 'echo hi' }, { text: 'not yet' }, { text: 'done MARKER-DONE' }, { text: 'one too many' }],
  };
  let claude: ClaudeScenarioRun;
  let ours: OurScenarioRun;
  beforeAll(async () => {
    claude = await runClaudeScenario(scenario);
    ours = await runOurScenario(scenario, { maxSteps: 6 });
  }, 240_000);
  afterAll(async () => {
    await claude?.mock.close();
    claude?.project.remove();
    ours?.project.remove();
  });

  it('holds the agent back once, and lets it stop on the answer that carries the marker', () => {
    expect(claude.requests, claude.explain()).toHaveLength(3);
    expect(ours.requests).toHaveLength(3);
    for (const [who, file] of [['claude', claude.file], ['ours', ours.file]] as const) {
      expect(file('seen-1.jsonl'), who).toBeDefined();
      expect(file('seen-2.jsonl'), who).toBeUndefined();
    }
  });

  it('the transcript the gate read last ends on that answer, an assistant line as Claude Code writes it', () => {
    for (const [who, file] of [['claude', claude.file], ['ours', ours.file]] as const) {
      const lines = (file('seen-1.jsonl') ?? '').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; message?: { role?: string; content?: { type: string; text?: string }[] } });
      const last = lines.filter((l) => l.message?.role === 'assistant').at(-1);
      expect(last?.type, who).toBe('assistant');
      expect(last?.message?.content?.filter((b) => b.type === 'text').map((b) => b.text), who).toEqual(['done MARKER-DONE']);
    }
  });
});
