import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, { import: { types: string; default: string }; require: { types: string; default: string } }>;
  main: string;
  types: string;
  engines: { node: string };
};

/** A copy of the package as npm would install it: package.json, a fresh build in dist/, and its dependencies. */
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-hooks-package-'));
  // Five library entries with their declarations, ESM and CommonJS: minutes on a busy machine.
  await run(join(root, 'node_modules/.bin/tsup'), ['--out-dir', join(dir, 'dist')], { cwd: root, timeout: 360_000 });
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
}, 420_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the built package', () => {
  it('ships every file its exports map names, ESM and CommonJS with types for each', () => {
    const entry = pkg.exports['.']!;
    for (const file of [entry.import.types, entry.import.default, entry.require.types, entry.require.default, pkg.main, pkg.types]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(pkg.engines.node).toBe('>=20');
  });

  it('loads with import() and require(), exposing the same API', async () => {
    const script = (kind: 'esm' | 'cjs') =>
      kind === 'esm'
        ? `const m = await import('agent-hooks'); console.log(JSON.stringify(Object.keys(m).sort()));`
        : `const m = require('agent-hooks'); console.log(JSON.stringify(Object.keys(m).sort()));`;
    writeFileSync(join(dir, 'probe.mjs'), script('esm'));
    writeFileSync(join(dir, 'probe.cjs'), script('cjs'));
    const esm = JSON.parse((await run(process.execPath, ['probe.mjs'], { cwd: dir })).stdout) as string[];
    const cjs = JSON.parse((await run(process.execPath, ['probe.cjs'], { cwd: dir })).stdout) as string[];
    expect(esm).toEqual(cjs);
    for (const name of ['HookStack', 'HookEvent', 'HookOutcome', 'ToolHookContext', 'BeforeToolHook', 'ToolNameMatcher', 'Matcher', 'HookError']) {
      expect(esm).toContain(name);
    }
  });

  it('installs a working agent-hooks executable', async () => {
    // The executable, and the ES module one that bridge lines written before it name.
    for (const file of ['dist/cli.cjs', 'dist/cli.js']) {
      const { stdout } = await run(process.execPath, [join(dir, file), 'events', '--json'], { cwd: dir });
      expect((JSON.parse(stdout) as { event: string }[]).map((r) => r.event)).toContain('PreToolUse');
    }
    const bin = (pkg as unknown as { bin: Record<string, string> }).bin['agent-hooks']!;
    expect(existsSync(join(dir, bin)), bin).toBe(true);
    expect(readFileSync(join(dir, bin), 'utf8').startsWith('#!/usr/bin/env node')).toBe(true);
  });

  it('dispatches through the CommonJS build', async () => {
    writeFileSync(
      join(dir, 'dispatch.cjs'),
      `const { HookStack, BeforeToolHook, HookOutcome, ToolHookContext, ToolCall } = require('agent-hooks');
       const stack = new HookStack().with(new BeforeToolHook(() => HookOutcome.block('no rm'), { matcher: 'bash' }));
       stack.process(ToolHookContext.beforeToolUse(ToolCall.create('bash', { command: 'rm -rf /' })))
         .then((o) => console.log(o.toString()));`,
    );
    expect((await run(process.execPath, ['dispatch.cjs'], { cwd: dir })).stdout.trim()).toBe('block: no rm');
  });

  it('times out a hook through the CommonJS build where Node cannot require() an ES module (as Node 20.0 to 20.18)', async () => {
    // p-timeout is ESM-only: the CommonJS build carries it, so it must load without require(esm).
    writeFileSync(
      join(dir, 'timeout.cjs'),
      `const { AgentBuilder, ScriptedModel } = require('agent-hooks');
       let aborted = false;
       const agent = AgentBuilder.new().withModel(new ScriptedModel(['Done.'])).withOptions({ hookTimeout: 50 })
         .onUserPromptSubmit((ctx, { signal }) => new Promise(() => signal.addEventListener('abort', () => (aborted = true))), { name: 'stuck' })
         .build();
       agent.run('Hi').catch((e) => console.log(JSON.stringify({ code: e.code, hookName: e.hookName, aborted })));`,
    );
    for (const file of readdirSync(join(dir, 'dist')).filter((f) => f.endsWith('.cjs'))) {
      expect(readFileSync(join(dir, 'dist', file), 'utf8'), file).not.toMatch(/require\("p-timeout"\)/);
    }
    const { stdout } = await run(process.execPath, ['--no-experimental-require-module', 'timeout.cjs'], { cwd: dir });
    expect(JSON.parse(stdout)).toEqual({ code: 'timeout', hookName: 'stuck', aborted: true });
  });

  it('ships agent-hooks/otel for import and require, and the main entry point never loads @opentelemetry/api', async () => {
    const entry = pkg.exports['./otel']!;
    for (const file of [entry.import.types, entry.import.default, entry.require.types, entry.require.default]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    // The main entry point, loaded both ways, leaves the optional peer dependency alone.
    writeFileSync(
      join(dir, 'no-otel.cjs'),
      `require('agent-hooks');
       console.log(JSON.stringify(Object.keys(require.cache).filter((f) => f.includes('@opentelemetry'))));`,
    );
    expect(JSON.parse((await run(process.execPath, ['no-otel.cjs'], { cwd: dir })).stdout)).toEqual([]);
    // ESM: a loader that refuses to resolve @opentelemetry; the subpath, which needs it, shows that the loader works.
    writeFileSync(
      join(dir, 'refuse-otel.mjs'),
      `export async function resolve(specifier, context, next) {
         if (specifier.startsWith('@opentelemetry/')) throw new Error('loaded ' + specifier);
         return next(specifier, context);
       }`,
    );
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module'; register('./refuse-otel.mjs', import.meta.url);`);
    const probe = async (specifier: string) => {
      writeFileSync(join(dir, 'probe-otel.mjs'), `await import('${specifier}'); console.log('loaded without @opentelemetry');`);
      return (await run(process.execPath, ['--import', './register.mjs', 'probe-otel.mjs'], { cwd: dir })).stdout.trim();
    };
    expect(await probe('agent-hooks')).toBe('loaded without @opentelemetry');
    await expect(probe('agent-hooks/otel')).rejects.toThrow(/loaded @opentelemetry\/api/);
    for (const file of ['dist/index.js', 'dist/index.cjs']) expect(readFileSync(join(dir, file), 'utf8')).not.toContain('@opentelemetry');

    // The subpath traces a real agent of the main entry point, from both module systems.
    const trace = (kind: 'esm' | 'cjs') => {
      const load = kind === 'esm'
        ? `const { AgentBuilder, ScriptedModel } = await import('agent-hooks'); const { otelHooks } = await import('agent-hooks/otel');
           const sdk = await import('@opentelemetry/sdk-trace-base');`
        : `const { AgentBuilder, ScriptedModel } = require('agent-hooks'); const { otelHooks } = require('agent-hooks/otel');
           const sdk = require('@opentelemetry/sdk-trace-base');`;
      return `${kind === 'cjs' ? '(async () => {' : ''}${load}
        const exporter = new sdk.InMemorySpanExporter();
        const tracer = new sdk.BasicTracerProvider({ spanProcessors: [new sdk.SimpleSpanProcessor(exporter)] }).getTracer('t');
        const tracing = otelHooks({ tracer });
        const agent = AgentBuilder.new().withModel(new ScriptedModel(['Done.'])).withHook(tracing).onStop(() => {}, { name: 'gate' }).build();
        tracing.observe(agent);
        await agent.run('Hi');
        console.log(JSON.stringify(exporter.getFinishedSpans().map((s) => s.name).sort()));${kind === 'cjs' ? '})();' : ''}`;
    };
    writeFileSync(join(dir, 'otel.mjs'), trace('esm'));
    writeFileSync(join(dir, 'otel.cjs'), trace('cjs'));
    for (const file of ['otel.mjs', 'otel.cjs']) {
      expect(JSON.parse((await run(process.execPath, [file], { cwd: dir })).stdout), file).toEqual(['agent_hooks.hook gate', 'agent_hooks.run', 'agent_hooks.step']);
    }
  });

  it('ships the HOOK.md frontmatter JSON Schema under its own export, equal to the one in the API', async () => {
    writeFileSync(join(dir, 'schema.cjs'), `console.log(require.resolve('agent-hooks/hook-frontmatter.schema.json'))`);
    const path = (await run(process.execPath, ['schema.cjs'], { cwd: dir })).stdout.trim();
    const shipped = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    const { hookFrontmatterJsonSchema } = await import('agent-hooks');
    expect(shipped).toEqual(JSON.parse(JSON.stringify(hookFrontmatterJsonSchema)));
    expect(shipped['required']).toEqual(expect.arrayContaining(['name', 'description', 'trigger']));
    // The built entries hold the schema as the build wrote it, where the sources make it as they load: the same value.
    writeFileSync(join(dir, 'schema-esm.mjs'), `const m = await import('agent-hooks'); console.log(JSON.stringify(m.hookFrontmatterJsonSchema));`);
    writeFileSync(join(dir, 'schema-cjs.cjs'), `console.log(JSON.stringify(require('agent-hooks').hookFrontmatterJsonSchema));`);
    for (const probe of ['schema-esm.mjs', 'schema-cjs.cjs']) {
      const built = JSON.parse((await run(process.execPath, [probe], { cwd: dir })).stdout) as Record<string, unknown>;
      expect(built, probe).toEqual(JSON.parse(JSON.stringify(hookFrontmatterJsonSchema)));
    }
  });

  it('ships the framework integrations as subpaths, ESM and CommonJS with types for each', () => {
    for (const subpath of ['./ai-sdk', './openai-agents', './claude-agent-sdk', './langchain']) {
      const entry = pkg.exports[subpath]!;
      for (const file of [entry.import.types, entry.import.default, entry.require.types, entry.require.default]) {
        expect(existsSync(join(dir, file)), file).toBe(true);
      }
    }
    const { peerDependencies, peerDependenciesMeta } = pkg as unknown as { peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional: boolean }> };
    expect(peerDependencies['ai']).toMatch(/^\^6\./);
    expect(peerDependenciesMeta).toMatchObject({
      ai: { optional: true },
      '@openai/agents': { optional: true },
      '@anthropic-ai/claude-agent-sdk': { optional: true },
      langchain: { optional: true },
      '@langchain/core': { optional: true },
    });
  });

  it('ships the checkpointers on a database as subpaths that load no database client, sharing the main entry’s CheckpointerError', async () => {
    const { peerDependencies, peerDependenciesMeta } = pkg as unknown as { peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional: boolean }> };
    expect(peerDependenciesMeta).toMatchObject({ pg: { optional: true }, redis: { optional: true }, 'better-sqlite3': { optional: true } });
    expect(peerDependencies['better-sqlite3']).toBe('^12.0.0');
    const stores = { postgres: 'PostgresCheckpointer', redis: 'RedisCheckpointer', sqlite: 'SqliteCheckpointer' };
    // A client whose every call fails, as over a dropped connection: the error must be the main entry's class.
    const failing = `{ query: () => Promise.reject(new Error('down')), sendCommand: () => Promise.reject(new Error('down')), prepare: () => { throw new Error('down'); }, exec: () => { throw new Error('down'); } }`;
    for (const [subpath, name] of Object.entries(stores)) {
      const entry = pkg.exports[`./${subpath}`]!;
      for (const file of [entry.import.types, entry.import.default, entry.require.types, entry.require.default]) expect(existsSync(join(dir, file)), file).toBe(true);
      const load =
        `import { CheckpointerError } from 'agent-hooks'; import { ${name} } from 'agent-hooks/${subpath}';\n` +
        `const { CheckpointerError } = require('agent-hooks'); const { ${name} } = require('agent-hooks/${subpath}');`;
      for (const [index, extension] of ['mjs', 'cjs'].entries()) {
        const file = `store-${subpath}.${extension}`;
        writeFileSync(join(dir, file), `${load.split('\n')[index]}\nnew ${name}(${failing}).load('run-1').catch((e) => console.log(e instanceof CheckpointerError, e.operation));`);
        expect((await run(process.execPath, [file], { cwd: dir })).stdout.trim(), file).toBe('true load');
      }
    }
    // The subpaths take the client the user made: no entry, the main one included, loads a database client.
    writeFileSync(
      join(dir, 'stores-only.cjs'),
      `require('agent-hooks'); require('agent-hooks/postgres'); require('agent-hooks/redis'); require('agent-hooks/sqlite');
       console.log(JSON.stringify(Object.keys(require.cache).filter((p) => /[\\/]node_modules[\\/](pg|redis|@redis|better-sqlite3)[\\/]/.test(p))));`,
    );
    expect(JSON.parse((await run(process.execPath, ['stores-only.cjs'], { cwd: dir })).stdout)).toEqual([]);
  });

  it('never loads the AI SDK or the OpenAI Agents SDK from the main entry', async () => {
    // CommonJS: everything loaded is in require.cache.
    writeFileSync(
      join(dir, 'main-only.cjs'),
      `require('agent-hooks'); console.log(JSON.stringify(Object.keys(require.cache).filter((p) => /[\\/]node_modules[\\/](ai|@ai-sdk|@openai)[\\/]/.test(p))));`,
    );
    expect(JSON.parse((await run(process.execPath, ['main-only.cjs'], { cwd: dir })).stdout)).toEqual([]);
    // ESM: no module the main entry imports, directly or through its chunks, imports 'ai'.
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(join(dir, 'dist', file), 'utf8');
      expect(text, file).not.toMatch(/(from\s*|import\(|require\()["'](ai|@ai-sdk\/[^"']+|@openai\/[^"']+)["']/);
      for (const [, chunk] of text.matchAll(/from\s*["']\.\/([^"']+)["']/g)) visit(chunk!);
    };
    visit('index.js');
    expect(seen.size).toBeGreaterThan(1);
    // The subpath's bundle is where the AI SDK is imported.
    expect(readFileSync(join(dir, 'dist/ai-sdk.js'), 'utf8')).toMatch(/from\s*["']ai["']/);
  });

  it('resolves agent-hooks/ai-sdk and agent-hooks/openai-agents with import() and require(), sharing the main entry’s classes', async () => {
    const probe = (load: string) => `${load}
      const hooks = new LoopHooks(new HookStack().with(new BeforeToolHook(() => HookOutcome.block('no'), { matcher: 'bash' })));
      hooks.runTool(ToolCall.create('bash', { command: 'ls' }), () => 'ran').then((answer) => console.log(answer));`;
    writeFileSync(
      join(dir, 'subpath.mjs'),
      probe(`import { HookStack, BeforeToolHook, HookOutcome, ToolCall } from 'agent-hooks'; import { LoopHooks } from 'agent-hooks/ai-sdk';`),
    );
    writeFileSync(
      join(dir, 'subpath.cjs'),
      probe(`const { HookStack, BeforeToolHook, HookOutcome, ToolCall } = require('agent-hooks'); const { LoopHooks } = require('agent-hooks/ai-sdk');`),
    );
    writeFileSync(
      join(dir, 'subpath-openai.mjs'),
      probe(`import { HookStack, BeforeToolHook, HookOutcome, ToolCall } from 'agent-hooks'; import { LoopHooks } from 'agent-hooks/openai-agents';`),
    );
    for (const file of ['subpath.mjs', 'subpath.cjs', 'subpath-openai.mjs']) {
      expect((await run(process.execPath, [file], { cwd: dir })).stdout.trim(), file).toBe('Tool call blocked by a hook: no');
    }
  });

  it('resolves agent-hooks/claude-agent-sdk and agent-hooks/langchain with import() and require(); the first loads nothing of its SDK', async () => {
    const claude = (load: string) => `${load}
      const { hooks } = claudeAgentHooks(new HookStack().with(new BeforeToolHook(() => HookOutcome.block('no'), { matcher: 'Bash' })));
      const input = { hook_event_name: 'PreToolUse', session_id: 's', cwd: '.', transcript_path: '', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't' };
      hooks.PreToolUse[0].hooks[0](input, 't', { signal: new AbortController().signal }).then((answer) => {
        const loaded = typeof require === 'function' ? Object.keys(require.cache).filter((p) => p.includes('@anthropic-ai')) : [];
        console.log(answer.hookSpecificOutput.permissionDecision, answer.hookSpecificOutput.permissionDecisionReason, loaded.length);
      });`;
    const langchain = (load: string) => `${load} console.log(typeof langchainMiddleware(new HookStack()).wrapToolCall);`;
    writeFileSync(join(dir, 'claude-sdk.mjs'), claude(`import { HookStack, BeforeToolHook, HookOutcome } from 'agent-hooks'; import { claudeAgentHooks } from 'agent-hooks/claude-agent-sdk';`));
    writeFileSync(join(dir, 'claude-sdk.cjs'), claude(`const { HookStack, BeforeToolHook, HookOutcome } = require('agent-hooks'); const { claudeAgentHooks } = require('agent-hooks/claude-agent-sdk');`));
    writeFileSync(join(dir, 'langchain.mjs'), langchain(`import { HookStack } from 'agent-hooks'; import { langchainMiddleware } from 'agent-hooks/langchain';`));
    writeFileSync(join(dir, 'langchain.cjs'), langchain(`const { HookStack } = require('agent-hooks'); const { langchainMiddleware } = require('agent-hooks/langchain');`));
    for (const file of ['claude-sdk.mjs', 'claude-sdk.cjs']) {
      expect((await run(process.execPath, [file], { cwd: dir })).stdout.trim(), file).toBe('deny no 0');
    }
    for (const file of ['langchain.mjs', 'langchain.cjs']) {
      expect((await run(process.execPath, [file], { cwd: dir })).stdout.trim(), file).toBe('function');
    }
    expect(readFileSync(join(dir, 'dist/claude-agent-sdk.js'), 'utf8')).not.toMatch(/["']@anthropic-ai\/claude-agent-sdk["']/);
  });
});
