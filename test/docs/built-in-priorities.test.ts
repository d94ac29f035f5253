/**
 * The built-in hooks' default priorities, as docs/concepts.md states them, and the onion they make: the observers
 * outermost, where they see the calls a guard refuses.
 */
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  AuditLogHook,
  CallableHook,
  DangerousCommandHook,
  ExecutionTimingHook,
  HookStack,
  ProtectedPathsHook,
  RateLimitHook,
  RequireApprovalHook,
  ToolCall,
  ToolCallLimitHook,
  ToolHookContext,
  type Hook,
} from 'agent-hooks';

const BUILT_INS: Readonly<Record<string, () => Hook & { priority: number }>> = {
  DangerousCommandHook: () => new DangerousCommandHook(),
  ProtectedPathsHook: () => new ProtectedPathsHook(),
  RequireApprovalHook: () => new RequireApprovalHook({ matcher: 'deploy' }),
  ToolCallLimitHook: () => new ToolCallLimitHook({ limit: 10 }),
  RateLimitHook: () => new RateLimitHook({ limit: 10, windowMs: 1000 }),
  AuditLogHook: () => new AuditLogHook(new PassThrough()),
  ExecutionTimingHook: () => new ExecutionTimingHook(),
};

/** The rows of the "Built-in hooks" table: class name and the priority it says. */
function documentedPriorities(): Record<string, number> {
  const text = readFileSync(new URL('../../docs/concepts.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('## Built-in hooks'));
  const lines = section.split('\n');
  const header = lines.findIndex((l) => l.startsWith('| class |'));
  const columns = lines[header]!.split(' | ').map((c) => c.replace(/^\| |\|$/g, '').trim());
  const at = columns.indexOf('default priority');
  expect(at, 'a "default priority" column in the built-in hooks table').toBeGreaterThan(0);
  const rows: Record<string, number> = {};
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('| `')) break;
    const cells = line.split(' | ');
    rows[cells[0]!.replace(/^\| `|`$/g, '')] = Number(cells[at]);
  }
  return rows;
}

describe('the built-in hooks’ priorities', () => {
  it('are the ones docs/concepts.md states, for every built-in', () => {
    const actual = Object.fromEntries(Object.entries(BUILT_INS).map(([name, make]) => [name, make().priority]));
    expect(documentedPriorities()).toEqual(actual);
  });

  it('put the observers outside the guards, so the audit log sees a refused call; a hook below the guard never does', async () => {
    const stream = new PassThrough();
    const lines: string[] = [];
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter((l) => l !== '')));
    const audit = new AuditLogHook(stream);
    const seenBelow: string[] = [];
    const stack = new HookStack()
      .with(new DangerousCommandHook())
      .with(audit)
      .with(new CallableHook((ctx, next) => {
        seenBelow.push(ctx.event);
        return next(ctx);
      }), -100);
    const outcome = await stack.process(ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'rm -rf /' })));
    expect(outcome.type).toBe('block');
    await audit.flush();
    expect(lines.map((l) => JSON.parse(l) as { event: string; outcome: string })).toEqual([expect.objectContaining({ event: 'PreToolUse', outcome: 'block' })]);
    expect(seenBelow).toEqual([]);
  });
});
