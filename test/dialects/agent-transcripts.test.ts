/**
 * `transcript_path` as Gemini CLI and Codex CLI send it (Copilot CLI's agentStop: `transcriptPath`): a file of the conversation in the agent's own format, which a
 * hook reads the last answer from. The reading is checked first on the transcripts the binaries wrote
 * (fixtures/<agent>/transcript.jsonl), then on the ones an agent built here writes for the same agent's hooks.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, ScriptedModel, defineTool } from 'agent-hooks';
import { sandbox } from '../config/support.js';

const READER = fileURLToPath(new URL('../agents/support/last-answer.cjs', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../bridge/fixtures/', import.meta.url));
const setup = sandbox();
const scratch = mkdtempSync(join(tmpdir(), 'agent-transcripts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The last answer a hook reading `path` as that agent's transcript finds. */
function lastAnswerIn(path: string, dir: string = scratch): string {
  rmSync(join(dir, 'last-answer.log'), { force: true });
  execFileSync(process.execPath, [READER], { cwd: dir, input: JSON.stringify({ transcript_path: path }) });
  return JSON.parse(readFileSync(join(dir, 'last-answer.log'), 'utf8').trim()) as string;
}

/** Each line type's keys (by `type`, and a response item's by its payload's type): what our lines must share. */
function keysByType(path: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const text of readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '')) {
    const line = JSON.parse(text) as Record<string, unknown>;
    if (line.type === undefined) continue;
    const payload = line.payload as Record<string, unknown> | undefined;
    const key = `${String(line.type)}${payload?.type !== undefined ? `:${String(payload.type)}` : ''}`;
    const keys = out.get(key) ?? new Set<string>();
    for (const k of Object.keys(payload ?? line)) keys.add(k);
    // Copilot's events hold their fields in `data`.
    if (typeof line.data === 'object' && line.data !== null) for (const k of Object.keys(line.data)) keys.add(`data.${k}`);
    out.set(key, keys);
  }
  return out;
}

const CASES = [
  // Gemini's timeout is in milliseconds, Codex's in seconds.
  { agent: 'gemini', file: '.gemini/settings.json', event: 'AfterAgent', tool: 'run_shell_command', source: { gemini: true }, timeout: 30_000 },
  { agent: 'codex', file: '.codex/hooks.json', event: 'Stop', tool: 'Bash', source: { codex: true }, timeout: 30 },
  { agent: 'copilot', file: '.github/hooks/stop.json', event: 'agentStop', tool: 'bash', source: { copilot: true }, timeout: 30 },
] as const;

describe.each(CASES)('$agent: transcript_path', ({ agent, file, event, tool, source, timeout }) => {
  it(`reads the last answer from the transcript ${agent} wrote`, () => {
    expect(lastAnswerIn(join(FIXTURES, agent, 'transcript.jsonl'))).toBe('All done.');
  });

  it(`names a transcript in ${agent}'s format, from which a ${event} hook reads the last answer as in ${agent}`, async () => {
    const { project, write } = await setup();
    const hook = { type: 'command', command: `tee payload.json | node '${READER}'`, timeout };
    // Copilot's files are flat (version 1, a `bash` command); the others group hooks under a matcher.
    await write(project, file, agent === 'copilot' ? { version: 1, hooks: { [event]: [{ bash: hook.command, timeoutSec: timeout }] } } : { hooks: { [event]: [{ hooks: [hook] }] } });
    const shell = defineTool({ name: tool, description: 'Runs a command.', input: z.object({ command: z.string() }), execute: () => 'hello' });
    const agentHere = AgentBuilder.new()
      .withModel(new ScriptedModel([{ toolCalls: [{ name: tool, args: { command: 'echo hello' } }] }, 'All done here.']))
      .withTools(shell)
      .withHooksFrom({ projectDir: project, trust: 'all', homeDir: false, userDir: false, hookmd: false, ...source })
      .build();
    const previous = process.cwd();
    process.chdir(project);
    try {
      await agentHere.run('Say hello.');
    } finally {
      process.chdir(previous);
    }
    const payload = JSON.parse(readFileSync(join(project, 'payload.json'), 'utf8')) as { transcript_path?: unknown; transcriptPath?: unknown };
    const path = payload.transcript_path ?? payload.transcriptPath;
    expect(typeof path).toBe('string');
    expect(JSON.parse(readFileSync(join(project, 'last-answer.log'), 'utf8').trim())).toBe('All done here.');
    // Every line of ours is a line the agent writes, with no key it does not have.
    const theirs = keysByType(join(FIXTURES, agent, 'transcript.jsonl'));
    for (const [type, keys] of keysByType(path as string)) {
      expect(theirs.has(type), `${type} is not a line ${agent} writes`).toBe(true);
      for (const key of keys) expect(theirs.get(type)!.has(key), `${type}.${key}`).toBe(true);
    }
  });
});
