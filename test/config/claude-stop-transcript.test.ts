/**
 * The transcript a Claude Code Stop gate reads, in an agent built here: published loop gates take the last assistant
 * message from `transcript_path` with `grep '"role":"assistant"' | tail -1 | jq …` and let the agent stop on a marker.
 * Claude Code 2.1.332's own transcript, recorded from the binary, is the reference
 * (test/agents/fixtures/claude/2.1.332/transcript.jsonl).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AgentBuilder, ScriptedModel } from 'agent-hooks';
import { sandbox } from './support.js';

const setup = sandbox();
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(REPO, 'test', 'agents', 'fixtures', 'claude', '2.1.332', 'transcript.jsonl');

/** The gate as published loop plugins write it: the last assistant message's text, from the transcript. */
const STOP_GATE = `#!/bin/bash
input=$(cat)
transcript=$(echo "$input" | jq -r .transcript_path)
cp "$transcript" "$CLAUDE_PROJECT_DIR/seen.jsonl"
echo "$transcript" > "$CLAUDE_PROJECT_DIR/transcript-path.txt"
last=$(grep '"role":"assistant"' "$transcript" | tail -1 | jq -r '.message.content[] | select(.type=="text") | .text')
if echo "$last" | grep -q "MARKER-DONE"; then exit 0; fi
echo '{"decision":"block","reason":"Not done: say MARKER-DONE when you are."}'
`;

/**
 * Another agent-hooks process, its session named as this one's (`session_1`): it writes its own conversation's
 * transcript with the same code, as a second agent running at the same time would.
 */
const OTHER_PROCESS = `node --import ${JSON.stringify(join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs'))} --input-type=module -e '
const { writeTranscript } = await import(${JSON.stringify(join(REPO, 'src', 'dialects', 'claude-transcript.ts'))});
const { AgentState } = await import(${JSON.stringify(join(REPO, 'src', 'core', 'index.ts'))});
writeTranscript(AgentState.create({ sessionId: process.env.SESSION, messages: [{ role: "user", content: "other" }, { role: "assistant", content: "still working" }] }), process.cwd());
'`;

const lines = (file: string): Record<string, unknown>[] => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

async function gated(withOtherProcess: boolean) {
  const { project, write, script } = await setup();
  await script('gate.sh', STOP_GATE);
  const session = 'session_1';
  // With the other process: its transcript is written after ours, right before the gate reads.
  const command = withOtherProcess
    ? `input=$(cat); SESSION=${session} ${OTHER_PROCESS} && printf '%s' "$input" | "$CLAUDE_PROJECT_DIR"/gate.sh`
    : '"$CLAUDE_PROJECT_DIR"/gate.sh';
  await write(project, '.claude/settings.json', { hooks: { Stop: [{ hooks: [{ type: 'command', command, timeout: 60 }] }] } });
  const model = new ScriptedModel(['not yet', 'done MARKER-DONE', 'again 1', 'again 2', 'again 3']);
  const agent = AgentBuilder.new().withModel(model).withMaxSteps(5).withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, claude: true, hookmd: false }).build();
  const run = agent.session({ id: session });
  const result = await run.run('go');
  await run.close();
  return { project, model, result };
}

describe('the transcript a Stop gate reads', () => {
  it('the published grep | jq gate sees the marker in the last answer, and lets the agent stop there', async () => {
    const { model, result } = await gated(false);
    expect(model.requests).toHaveLength(2);
    expect(result.text).toBe('done MARKER-DONE');
  });

  it('another process with a session of the same name writes a transcript of its own: the gate still reads this one', async () => {
    const { project, model, result } = await gated(true);
    expect(model.requests, readFileSync(join(project, 'seen.jsonl'), 'utf8')).toHaveLength(2);
    expect(result.text).toBe('done MARKER-DONE');
  }, 60_000);

  it('its lines have the fields Claude Code 2.1.332 writes where a gate reads them; the file is private to the user', async () => {
    const { project } = await gated(false);
    const file = join(project, 'seen.jsonl');
    const ours = lines(file);
    const claude = lines(FIXTURE);
    const assistant = (all: Record<string, unknown>[]) => all.filter((l) => l.type === 'assistant');
    const reference = assistant(claude)[0]!;
    for (const line of assistant(ours)) {
      // Every key we write is one Claude Code writes, in its order.
      const keys = Object.keys(line);
      expect(keys.filter((k) => !(k in reference))).toEqual([]);
      expect(keys).toEqual(Object.keys(reference).filter((k) => keys.includes(k)));
      const message = line.message as Record<string, unknown>;
      const claudeMessage = reference.message as Record<string, unknown>;
      expect(Object.keys(message)).toEqual(Object.keys(claudeMessage).filter((k) => k in message));
      expect(message).toMatchObject({ type: 'message', role: 'assistant', stop_sequence: null });
    }
    expect(assistant(ours).map((l) => (l.message as { stop_reason: string }).stop_reason)).toEqual(['end_turn', 'end_turn']);
    expect(ours[0]!.sessionId).toBe('session_1');
    const path = readFileSync(join(project, 'transcript-path.txt'), 'utf8').trim();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('around the messages, the lines Claude Code 2.1.332 writes of the prompt: its queue operations before it, last-prompt after each answer', async () => {
    const { project } = await gated(false);
    const ours = lines(join(project, 'seen.jsonl'));
    const claude = lines(FIXTURE);
    // The kinds of line, in order, of the conversation this gate saw last: one prompt, a held-back answer, the gate's
    // feedback and its blocking error (a system message, a meta line), the answer it let stop.
    const kinds = (all: Record<string, unknown>[]) => all.map((l) => (l.type === 'queue-operation' ? `queue-${String(l.operation)}` : String(l.type)));
    expect(kinds(ours)).toEqual(['queue-enqueue', 'queue-dequeue', 'user', 'assistant', 'last-prompt', 'user', 'user', 'assistant', 'last-prompt']);
    // Each with Claude Code's keys, in its order.
    for (const kind of ['queue-enqueue', 'queue-dequeue', 'last-prompt']) {
      const reference = claude[kinds(claude).indexOf(kind)]!;
      for (const line of ours.filter((_, i) => kinds(ours)[i] === kind)) expect(Object.keys(line)).toEqual(Object.keys(reference));
    }
    expect(ours[0]).toMatchObject({ content: 'go', sessionId: 'session_1' });
    const answers = ours.filter((l) => l.type === 'assistant');
    expect(ours.filter((l) => l.type === 'last-prompt')).toEqual(answers.map((a) => ({ type: 'last-prompt', lastPrompt: 'go', leafUuid: a.uuid, sessionId: 'session_1' })));
    // The gate's feedback is no prompt: a meta line of the hook's, with the keys Claude Code gives it, in its order.
    const feedback = ours.filter((l) => l.type === 'user')[1]!;
    expect(feedback).toMatchObject({ isMeta: true, rowSource: 'hook', hookText: true });
    const reference = claude.find((l) => l.type === 'user' && l.rowSource === 'hook')!;
    expect(Object.keys(feedback)).toEqual(Object.keys(reference).filter((k) => k in feedback));
  });
});
