import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, HookStack, ProtectedPathsHook, ScriptedModel, ToolCall, ToolHookContext, defineTool } from 'agent-hooks';
import { callsStep, toolMessages } from '../agent/support.js';

const hook = new ProtectedPathsHook({ projectDir: '/proj' });
const pre = (tool: string, args: Record<string, unknown>) => ToolHookContext.beforeToolUse(ToolCall.create(tool, args));
const decide = async (h: ProtectedPathsHook, tool: string, args: Record<string, unknown>) => (await new HookStack().with(h).process(pre(tool, args))).toString();

describe('ProtectedPathsHook: paths', () => {
  it.each([
    ['.env', '.env'],
    ['./.env', '.env'],
    ['sub/../.env', '.env'],
    ['/proj/.env', '.env'],
    ['/proj/sub/../.env', '.env'],
    ['config/.env', '.env'],
    ['.env.local', '.env.*'],
    ['apps/web/.env.production', '.env.*'],
    ['.git/config', '**/.git/**'],
    ['./.git/hooks/pre-commit', '**/.git/**'],
    ['/proj/vendor/lib/.git/HEAD', '**/.git/**'],
    ['.git', '**/.git/**'],
    ['/home/me/.env', '.env'],
  ])('protects %j (%s)', (path, glob) => {
    expect(hook.protects(path)).toBe(glob);
  });

  it.each(['README.md', 'src/env.ts', '.envrc', 'environment/.env-example', '.gitignore', '.github/workflows/ci.yml', 'docs/.git-notes', '/proj/src/index.ts'])(
    'leaves %j alone',
    (path) => {
      expect(hook.protects(path)).toBeUndefined();
    },
  );

  it('normalises paths against the project directory; paths outside it stay absolute', () => {
    expect(hook.normalise('./a/../b/c.txt')).toBe('b/c.txt');
    expect(hook.normalise('/proj/x')).toBe('x');
    expect(hook.normalise('/proj')).toBe('.');
    expect(hook.normalise('../other/.env')).toBe('/other/.env');
    expect(hook.normalise('/etc/passwd')).toBe('/etc/passwd');
  });

  it('takes more globs, absolute ones for paths outside the project, and can match without case', () => {
    const custom = new ProtectedPathsHook({ projectDir: '/proj', extraPatterns: ['secrets/**', '*.pem', '/etc/**'], nocase: true });
    expect(custom.protects('secrets/prod/db.json')).toBe('secrets/**');
    expect(custom.protects('certs/server.pem')).toBe('*.pem');
    expect(custom.protects('/etc/hosts')).toBe('/etc/**');
    expect(custom.protects('.ENV')).toBe('.env');
    expect(custom.protects('src/secrets/x')).toBeUndefined();
    const replaced = new ProtectedPathsHook({ projectDir: '/proj', patterns: ['dist/**'] });
    expect([replaced.protects('.env'), replaced.protects('dist/a.js')]).toEqual([undefined, 'dist/**']);
  });
});

describe('ProtectedPathsHook: tools', () => {
  it.each(['write_file', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'str_replace_based_edit_tool', 'apply_patch', 'delete-file', 'moveFile', 'fs.rename', 'create_directory'])(
    'treats %j as a tool that writes',
    (name) => {
      expect(ProtectedPathsHook.isWriteTool(name)).toBe(true);
    },
  );

  it.each(['read_file', 'Read', 'Glob', 'Grep', 'LS', 'bash', 'search', 'transform', 'format_code', 'list_dir'])('treats %j as a tool that does not write', (name) => {
    expect(ProtectedPathsHook.isWriteTool(name)).toBe(false);
  });

  it('blocks writes through any path field, arrays and nested edits included', async () => {
    expect(await decide(hook, 'write_file', { path: './.env', content: 'X=1' })).toBe(
      "block: Protected path: write_file may not write to .env (it matches '.env').",
    );
    expect(await decide(hook, 'Edit', { file_path: '/proj/.git/config', old_string: 'a', new_string: 'b' })).toMatch(/^block: .*\.git\/config/);
    expect(await decide(hook, 'move_file', { source: 'notes.md', destination: 'sub/../.env' })).toMatch(/^block/);
    expect(await decide(hook, 'delete_files', { paths: ['a.txt', '.env.local'] })).toMatch(/^block: .*\.env\.local/);
    expect(await decide(hook, 'apply_edits', { edits: [{ filePath: 'src/a.ts' }, { filePath: '.env' }] })).toMatch(/^block/);
    expect(await decide(hook, 'write_file', { path: 'src/index.ts', content: '.env' })).toBe('proceed');
  });

  it('leaves reading tools alone, and checks the tools and fields it is told to', async () => {
    expect(await decide(hook, 'read_file', { path: '.env' })).toBe('proceed');
    const custom = new ProtectedPathsHook({ projectDir: '/proj', tools: 'bash_write', fields: ['out'], behaviour: 'stop' });
    expect(await decide(custom, 'bash_write', { out: '.env' })).toMatch(/^stop: Protected path/);
    expect(await decide(custom, 'bash_write', { path: '.env' })).toBe('proceed');
    expect(await decide(custom, 'write_file', { out: '.env' })).toBe('proceed');
  });

  it('checks a rewrite of the path made by a later hook', async () => {
    const stack = new HookStack()
      .with(hook)
      .with((ctx, next) => (ctx.event === 'PreToolUse' ? next(ctx.withArgs({ path: '.env' })) : next(ctx)), 0);
    expect((await stack.process(pre('write_file', { path: 'notes.md' }))).type).toBe('block');
  });

  it('rejects empty globs', () => {
    expect(() => new ProtectedPathsHook({ patterns: [''] })).toThrow(/non-empty glob/);
  });
});

describe('ProtectedPathsHook in an agent', () => {
  const project = mkdtempSync(join(tmpdir(), 'agent-hooks-protected-'));
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('keeps a real write tool off .env while other writes go through', async () => {
    writeFileSync(join(project, '.env'), 'SECRET=1\n');
    const writeFile = defineTool({
      name: 'write_file',
      input: z.object({ path: z.string(), content: z.string() }),
      execute: ({ path, content }) => {
        writeFileSync(join(project, path), content);
        return `wrote ${path}`;
      },
    });
    const model = new ScriptedModel([
      callsStep(['write_file', { path: 'notes.md', content: 'hello' }], ['write_file', { path: `sub/../.env`, content: 'SECRET=stolen' }], ['write_file', { path: join(project, '.env'), content: 'x' }]),
      'Done.',
    ]);
    const agent = AgentBuilder.new().withModel(model).withTools(writeFile).withHook(new ProtectedPathsHook({ projectDir: project })).build();
    const result = await agent.run('Write notes');

    expect(readFileSync(join(project, 'notes.md'), 'utf8')).toBe('hello');
    expect(readFileSync(join(project, '.env'), 'utf8')).toBe('SECRET=1\n');
    expect(existsSync(join(project, 'sub'))).toBe(false);
    expect(toolMessages(result.messages).map((m) => m.content)).toEqual([
      'wrote notes.md',
      "Tool call blocked by a hook: Protected path: write_file may not write to .env (it matches '.env').",
      "Tool call blocked by a hook: Protected path: write_file may not write to .env (it matches '.env').",
    ]);
  });
});
