/**
 * Every payload Copilot CLI 1.0.102 was recorded sending (fixtures/copilot/: its camelCase payloads, and under
 * claude-compatible/ what it sends a hook configured under a PascalCase name) through the built `agent-hooks bridge
 * --from copilot` (and `--from vscode`, whose file Copilot CLI runs too): each is read, its hooks run, and the context holds Copilot's values in our words. A payload the
 * bridge refuses is a guard that never runs.
 */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCliBuilt, runCli } from '../support/cli.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/copilot/', import.meta.url));
const PASCAL = join(FIXTURES, 'claude-compatible');
const jsonIn = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'tools.json');

/** A config module whose one hook logs what each context holds, then lets it proceed. */
const MODULE = `import { appendFileSync } from 'node:fs';
export default [{ priority: 500, hook: (ctx, next) => {
  appendFileSync(process.env.SEEN_LOG, JSON.stringify({ event: ctx.event, source: ctx.source, stopReason: ctx.stopReason,
    tool: ctx.toolCall?.name, args: ctx.toolCall?.args, result: ctx.execution?.result, prompt: ctx.prompt }) + '\\n');
  return next(ctx);
} }];
`;

let dir: string;
beforeAll(async () => {
  await ensureCliBuilt();
  dir = mkdtempSync(join(tmpdir(), 'copilot-recorded-'));
  writeFileSync(join(dir, 'hooks.mjs'), MODULE);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bridge's run on one recorded payload, `event` as the hook file names it, and what its hook saw. */
async function bridge(file: string, event: string | undefined, from = 'copilot'): Promise<{ code: number | null; stderr: string; seen: Record<string, unknown> | undefined }> {
  const log = join(dir, `${event ?? 'none'}-${Math.random().toString(36).slice(2)}.jsonl`);
  appendFileSync(log, '');
  const args = ['bridge', '--from', from, ...(event === undefined ? [] : ['--event', event]), '--config', join(dir, 'hooks.mjs')];
  const out = await runCli(args, { cwd: dir, input: readFileSync(file, 'utf8'), env: { SEEN_LOG: log } });
  const line = readFileSync(log, 'utf8').trim().split('\n')[0];
  return { code: out.code, stderr: out.stderr, seen: line ? (JSON.parse(line) as Record<string, unknown>) : undefined };
}

describe('Copilot CLI 1.0.102’s recorded payloads through the built bridge', () => {
  it.each(jsonIn(FIXTURES))('camelCase %s: read, and its hook runs', async (file) => {
    const event = file.replace(/(-.*)?\.json$/, '');
    const run = await bridge(join(FIXTURES, file), event);
    expect(run.code, run.stderr).toBe(0);
    expect(run.seen, run.stderr).toBeDefined();
  }, 60_000);

  it.each(jsonIn(PASCAL))('Claude-compatible %s (a PascalCase hook): read, and its hook runs', async (file) => {
    const run = await bridge(join(PASCAL, file), file.replace(/\.json$/, ''));
    expect(run.code, run.stderr).toBe(0);
    expect(run.seen, run.stderr).toBeDefined();
  }, 60_000);

  it.each(jsonIn(PASCAL).filter((f) => f !== 'PermissionRequest.json'))('Claude-compatible %s through `--from vscode` (Copilot CLI runs VS Code’s file too): read, and its hook runs', async (file) => {
    const run = await bridge(join(PASCAL, file), undefined, 'vscode');
    expect(run.code, run.stderr).toBe(0);
    expect(run.seen, run.stderr).toBeDefined();
  }, 60_000);

  it('reads Copilot’s values in our words: a new session starts up, a turn the model ended stopped for want of tool calls', async () => {
    const start = await bridge(join(PASCAL, 'SessionStart.json'), 'SessionStart');
    expect(start.seen, start.stderr).toMatchObject({ event: 'SessionStart', source: 'startup' });
    const stop = await bridge(join(PASCAL, 'Stop.json'), 'Stop');
    expect(stop.seen, stop.stderr).toMatchObject({ event: 'Stop', stopReason: 'no_tool_calls' });
    const post = await bridge(join(PASCAL, 'PostToolUse.json'), 'PostToolUse');
    expect(post.seen, post.stderr).toMatchObject({ event: 'PostToolUse', tool: 'Bash', result: '\n<shellId: 0 completed with exit code 0>' });
  }, 60_000);

  it('reads permissionRequest, whose payload is camelCase with toolInput under either name and names its own event', async () => {
    for (const event of ['PermissionRequest', 'permissionRequest', undefined]) {
      const run = await bridge(join(FIXTURES, 'permissionRequest.json'), event);
      expect(run.code, `${event}: ${run.stderr}`).toBe(0);
      expect(run.seen, `${event}: ${run.stderr}`).toMatchObject({ event: 'PermissionRequest', tool: 'bash', args: { command: 'touch a.txt' } });
    }
  }, 60_000);
});
