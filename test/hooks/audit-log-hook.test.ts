import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AuditLogHook,
  HookOutcome,
  HookStack,
  ToolCall,
  ToolHookContext,
  type AgentWarning,
  type HookNote,
} from 'agent-hooks';
import { ONE_TOOL_RUN, oneCall } from '../agent/support.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-hooks-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readLines = (path: string) =>
  readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const fixedClock = () => new Date('2030-01-02T03:04:05.000Z');

describe('AuditLogHook', () => {
  it('writes one JSON line per event of a real run, with what the hooks decided', async () => {
    const path = join(dir, 'nested', 'folder', 'run.jsonl');
    const audit = new AuditLogHook(path, { now: fixedClock });
    const agent = oneCall()
      .builder.withHook(audit)
      .onBeforeToolUse(() => HookOutcome.block('Not today'))
      .build();
    await agent.run('Go');
    await audit.flush();

    const lines = readLines(path);
    // A line is written when the event's hooks have decided: BeforeToolSelection's, inside BeforeModel's chain, first.
    const decided = [...ONE_TOOL_RUN]
      .filter((e) => e !== 'PostToolUse')
      .map((e) => (e === 'BeforeModel' ? 'BeforeToolSelection' : e === 'BeforeToolSelection' ? 'BeforeModel' : e));
    expect(lines.map((l) => l['event'])).toEqual(decided);
    expect(lines.find((l) => l['event'] === 'AfterModel')).toMatchObject({ request: { messages: 1, tools: ['echo'] }, response: { text: '' } });
    const pre = lines.find((l) => l['event'] === 'PreToolUse')!;
    expect(pre).toMatchObject({
      time: '2030-01-02T03:04:05.000Z',
      agentId: agent.id,
      toolCall: { name: 'echo', args: { text: 'hi' } },
      outcome: 'block',
      reason: 'Not today',
    });
    expect(typeof pre['durationMs']).toBe('number');
    expect(lines.find((l) => l['event'] === 'ExecutionEnd')).toMatchObject({ outcome: 'proceed', status: 'completed' });
    expect(lines.every((l) => !('metadata' in l))).toBe(true);
  });

  it('records the context as the hooks left it: a rewritten call is what the line shows', async () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c.toString()));
    const stack = new HookStack()
      .with(new AuditLogHook(stream, { includeMetadata: true }))
      .with((ctx, next) => (ctx.event === 'PreToolUse' ? next(ctx.withArgs({ command: 'ls -la' }).withMetadata('checked', true)) : next(ctx)));
    const outcome = await stack.process(ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'ls' })));
    expect(outcome.type).toBe('proceed');
    await new Promise((r) => setImmediate(r));
    const line = JSON.parse(chunks.join('')) as Record<string, unknown>;
    expect(line).toMatchObject({ event: 'PreToolUse', toolCall: { args: { command: 'ls -la' } }, metadata: { checked: true }, outcome: 'proceed' });
  });

  it('logs only the events it is given, in any dialect’s names', async () => {
    const path = join(dir, 'filtered.jsonl');
    const audit = new AuditLogHook(path, { events: ['pre-tool-call', 'ExecutionEnd'] });
    await oneCall().builder.withHook(audit).build().run('Go');
    await audit.flush();
    expect(readLines(path).map((l) => l['event'])).toEqual(['PreToolUse', 'ExecutionEnd']);
    expect(() => new AuditLogHook(path, { events: ['PreToolUze'] })).toThrow(/PreToolUze/);
  });

  it('flushes and closes its file at SessionEnd, and opens it again for the next session', async () => {
    const path = join(dir, 'session.jsonl');
    const audit = new AuditLogHook(path);
    const agent = oneCall().builder.withHook(audit).build();
    const session = agent.session();
    await session.run('Go');
    await session.close();
    // No flush(): SessionEnd waited for the lines to be written.
    const events = readLines(path).map((l) => l['event']);
    expect(events[0]).toBe('SessionStart');
    expect(events.at(-1)).toBe('SessionEnd');

    // Closing a closed log does nothing.
    await audit.close();
    const second = oneCall().builder.withHook(audit).build().session();
    await second.run('Again');
    await second.close();
    expect(readLines(path).filter((l) => l['event'] === 'SessionEnd')).toHaveLength(2);
  });

  it('turns a write error into one warning note and never fails or blocks the run', async () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    // A folder where the file should be: opening it fails with EISDIR.
    const audit = new AuditLogHook(folder);
    const agent = oneCall().builder.withHook(audit).build();
    const warnings: AgentWarning[] = [];
    const notes: HookNote[] = [];
    agent.events.on('warning', (w) => warnings.push(w));
    agent.events.on('hook:note', (n) => notes.push(n));
    const result = await agent.run('Go');
    await audit.flush();

    expect(result.status).toBe('completed');
    expect(notes.length).toBeGreaterThanOrEqual(1);
    expect(notes[0]).toMatchObject({ level: 'warning', hookName: 'AuditLogHook', code: 'audit-write-failed' });
    expect(notes[0]!.message).toMatch(new RegExp(`^AuditLogHook could not write to ${folder}: .*EISDIR`));
    expect(warnings.map((w) => w.code)).toContain('audit-write-failed');
  });

  it('reports a stream that fails, and a stream already ended, without throwing', async () => {
    const broken = new Writable({ write: (_chunk, _enc, done) => done(new Error('disk full')) });
    const notes: HookNote[] = [];
    const options = { onNote: (n: HookNote) => notes.push(n) };
    const audit = new AuditLogHook(broken);
    const stack = new HookStack().with(audit);
    const ctx = ToolHookContext.beforeToolUse(ToolCall.create('x'));
    for (let i = 0; i < 3; i++) expect((await stack.process(ctx, undefined, options)).type).toBe('proceed');
    await audit.flush();
    // Every line after the first fails the same way: the stream's failure is told once, not once per line.
    expect(notes.map((n) => n.message)).toEqual(['AuditLogHook could not write to stream: disk full. The line was dropped; the run goes on.']);

    const ended = new PassThrough();
    ended.end();
    const endedNotes: HookNote[] = [];
    await new HookStack().with(new AuditLogHook(ended)).process(ctx, undefined, { onNote: (n) => endedNotes.push(n) });
    expect(endedNotes.map((n) => n.message)).toEqual(['AuditLogHook could not write to stream: the stream is closed. The line was dropped; the run goes on.']);
  });

  it('logs a hook that threw as an error line, and lets the error through', async () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c.toString()));
    const stack = new HookStack().with(new AuditLogHook(stream)).with(() => {
      throw new Error('hook broke');
    });
    await expect(stack.process(ToolHookContext.beforeToolUse(ToolCall.create('x')))).rejects.toThrow(/hook broke/);
    await new Promise((r) => setImmediate(r));
    expect(JSON.parse(chunks.join(''))).toMatchObject({ event: 'PreToolUse', outcome: 'error', reason: expect.stringContaining('hook broke') });
  });

  it('does not end a stream it was given, and serialises values JSON cannot', async () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c.toString()));
    const audit = new AuditLogHook(stream);
    const circular: Record<string, unknown> = { big: 10n };
    circular['self'] = circular;
    await new HookStack().with(audit).process(ToolHookContext.beforeToolUse(ToolCall.create('x', { circular })));
    await audit.close();
    expect(stream.writableEnded).toBe(false);
    expect(JSON.parse(chunks.join(''))).toMatchObject({ toolCall: { args: { circular: { big: '10', self: '[Circular]' } } } });
  });

  it('runs first by default, so its line holds what every other hook decided', () => {
    const stack = new HookStack().with(() => HookOutcome.block('x'), 1000).with(new AuditLogHook(new PassThrough()));
    expect(stack.all().map((e) => e.name)).toEqual(['AuditLogHook', 'anonymous hook']);
    expect(() => new AuditLogHook('')).toThrow(/file path or a writable stream/);
    expect(() => new AuditLogHook(42 as never)).toThrow(/got number/);
  });
});
