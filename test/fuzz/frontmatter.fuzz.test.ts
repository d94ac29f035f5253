/**
 * Bad HOOK.md files, generated: whatever a frontmatter holds, the loader never throws, and every file yields a hook or
 * at least one problem with a file, a code and a reason.
 */
import fc from 'fast-check';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { discoverHooks, parseFrontmatter, validateFrontmatter, type FrontmatterBlock, type HookProblem } from 'agent-hooks';
import { tempDirs } from '../support/hook-folders.js';
import { sized } from '../support/size.js';

const FILE = '/project/.agents/hooks/my-hook/HOOK.md';
const TRIGGERS = ['pre-tool-call', 'before_tool', 'PreToolUse', 'Stop', 'post-tool-call', 'SessionStart', 'preToolUse', 'BeforeTool', 'nope'];
const KEYS = ['name', 'description', 'trigger', 'matcher', 'timeout', 'priority', 'async', 'metadata', 'event', 'events', 'hooks', 'tool', 'pattern', '__proto__', 'constructor', 'toString'];

/** Text that stresses parsers: unicode, control characters, YAML indicators, very long runs. */
const nastyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(...':-#|>&*!%@`\'"{}[],?\n\t \\---'.split('')), maxLength: 40 }),
  fc.constantFrom('', ' ', '---', '- - -', '~', 'null', 'yes', 'NaN', '.inf', '0x1F', '1e999', '@x', '*a', '&a [*a]', '!!binary AA', '\u0000', '\uFEFF', '\uD800'),
  // Up to just past the 64 KiB a frontmatter may take.
  fc.integer({ min: 1, max: 70_000 }).map((n) => 'x'.repeat(n)),
);

/** Any value a YAML document could hold, nested. */
const anyValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nastyText,
    fc.constantFrom(null, true, false, 0, -1, 1.5, 99, 100, 1000, 600_001, Number.MAX_SAFE_INTEGER, Infinity, NaN),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A frontmatter mapping: real keys with plausible or random values, random keys, nested matchers. */
const frontmatterData = fc.oneof(
  anyValue,
  fc.record(
    {
      name: fc.oneof(fc.constantFrom('my-hook', 'My Hook', 'a--b', '-x', 'a'.repeat(65)), anyValue),
      description: fc.oneof(fc.constant('A hook.'), anyValue),
      trigger: fc.oneof(fc.constantFrom(...TRIGGERS), anyValue),
      matcher: fc.oneof(
        fc.record({ tool: fc.oneof(fc.constantFrom('Bash', '^Write$', '(', '(a+)+$', '[z-a]'), anyValue), pattern: fc.oneof(fc.constantFrom('rm -rf', '\\.py$', '*', '(a|a)*b'), anyValue) }, { requiredKeys: [] }),
        anyValue,
      ),
      timeout: fc.oneof(fc.integer({ min: -10, max: 700_000 }), anyValue),
      priority: fc.oneof(fc.integer({ min: -10, max: 1010 }), anyValue),
      async: fc.oneof(fc.boolean(), anyValue),
      metadata: anyValue,
      extra: anyValue,
    },
    { requiredKeys: [] },
  ),
);

/** The invariant every problem keeps: it names a file, a code and a reason. */
function expectReasoned(problems: readonly HookProblem[], file: string): void {
  for (const problem of problems) {
    expect(problem.file).toBe(file);
    expect(typeof problem.code).toBe('string');
    expect(problem.code).not.toBe('');
    expect(typeof problem.message).toBe('string');
    expect(problem.message.trim()).not.toBe('');
    expect(['error', 'warning']).toContain(problem.severity);
  }
}

const block = (text: string): FrontmatterBlock => ({ ok: true, text, textLine: 2, bodyOffset: 0, bytesRead: text.length });

describe('frontmatter parsing and validation, fuzzed', () => {
  it('validation of any value yields a manifest or an error problem, never a throw', () => {
    fc.assert(
      fc.property(frontmatterData, (data) => {
        const { manifest, problems } = validateFrontmatter(data, { file: FILE });
        expectReasoned(problems, FILE);
        const errors = problems.filter((p) => p.severity === 'error');
        expect(manifest === undefined).toBe(errors.length > 0);
        if (manifest !== undefined) {
          expect(manifest.name).toBe('my-hook');
          expect(manifest.file).toBe(FILE);
        }
      }),
      {
        numRuns: sized(400),
        // Once found here: zod threw writing the message for a value whose constructor's name has no prototype.
        examples: [[{ matcher: { pattern: Object.assign(Object.create(null) as object, { constructor: { name: Object.create(null) as object } }) } }]],
      },
    );
  });

  it('parsing any YAML text, written out or raw, yields data or problems with a reason, never a throw', () => {
    const text = fc.oneof(
      frontmatterData.map((data) => {
        try {
          return stringify(data);
        } catch {
          return String(data);
        }
      }),
      nastyText,
      fc.array(fc.oneof(nastyText, fc.constantFrom('name: my-hook', 'trigger: Stop', 'matcher:', '  tool: Bash', '---', 'a: &x [*x, *x]')), { maxLength: 8 }).map((lines) => lines.join('\n')),
    );
    fc.assert(
      fc.property(text, (yaml) => {
        const parsed = parseFrontmatter(block(yaml), FILE);
        expectReasoned(parsed.problems, FILE);
        if (!parsed.ok) {
          expect(parsed.problems.length).toBeGreaterThan(0);
          return;
        }
        const { problems } = validateFrontmatter(parsed.data, { file: FILE });
        expectReasoned(problems, FILE);
      }),
      { numRuns: sized(400) },
    );
  });
});

describe('HOOK.md files on disk, fuzzed through discovery', () => {
  const dirs = tempDirs();
  afterEach(() => dirs.cleanup());

  const valid = (name: string, extra = '') => `name: ${name}\ndescription: A hook.\ntrigger: pre-tool-call\n${extra}`;

  /** The whole HOOK.md text for folder `name`: fences present, missing, doubled; YAML good, bad or random. */
  const hookMd = (name: string) =>
    fc.oneof(
      // Valid, with random optional fields: these load, unless a value is out of range.
      fc
        .record(
          {
            priority: fc.integer({ min: -1, max: 1000 }),
            timeout: fc.integer({ min: 100, max: 600_000 }),
            async: fc.boolean(),
            metadata: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
            matcher: fc.record({ tool: fc.constantFrom('Bash', 'Write|Edit', '^mcp__.*'), pattern: fc.constantFrom('rm\\s+-rf', '\\.env$') }, { requiredKeys: [] }),
          },
          { requiredKeys: [] },
        )
        .map((extra) => `---\n${stringify({ name, description: 'A hook.', trigger: 'pre-tool-call', ...extra })}---\n# ${name}\n`),
      frontmatterData.map((data) => {
        try {
          return `---\n${stringify(data)}---\n# body\n`;
        } catch {
          return `---\n${String(data)}\n---\n`;
        }
      }),
      fc.record({
        open: fc.constantFrom('---\n', '', '\uFEFF---\n', '---\r\n', '--- \n', '----\n', '---\n---\n'),
        yaml: fc.oneof(fc.constant(valid(name)), nastyText.map((t) => valid(name, t)), nastyText, fc.constant(valid(name, `matcher:\n  pattern: '(a+)+$'\n`))),
        close: fc.constantFrom('\n---\n', '', '\n--- \n', '\n...\n', '\n---\n---\n', '\n---'),
        body: fc.oneof(fc.constant(''), nastyText),
      }).map(({ open, yaml, close, body }) => `${open}${yaml}${close}${body}`),
    );

  it('every folder with a HOOK.md yields a hook or an error problem naming its file; discovery never rejects', async () => {
    const names = ['alpha', 'beta', 'gamma'];
    await fc.assert(
      fc.asyncProperty(fc.tuple(...names.map((n) => hookMd(n))), async (texts) => {
        const project = await dirs.make();
        const root = join(project, '.agents', 'hooks');
        const files = await Promise.all(
          texts.map(async (text, i) => {
            const dir = join(root, names[i]!);
            await mkdir(join(dir, 'scripts'), { recursive: true });
            await writeFile(join(dir, 'scripts', 'run'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
            await writeFile(join(dir, 'HOOK.md'), text);
            return join(dir, 'HOOK.md');
          }),
        );
        const found = await discoverHooks({ projectDir: project, userDir: false, trust: 'all' });
        for (const problem of found.problems) expectReasoned([problem], problem.file);
        for (const [i, file] of files.entries()) {
          const loaded = found.hooks.some((h) => h.name === names[i]);
          const errors = found.problems.filter((p) => p.file === file && p.severity === 'error');
          expect(loaded !== errors.length > 0, `${file}: loaded ${loaded}, ${errors.length} errors`).toBe(true);
        }
        await dirs.cleanup();
      }),
      { numRuns: sized(25) },
    );
  });
});
