import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { HOOK_EVENTS, HookEvent } from '../../src/core/index.js';
import {
  FRONTMATTER_CHUNK_BYTES,
  FRONTMATTER_MAX_BYTES,
  HOOK_TRIGGER_NAMES,
  hookFrontmatterJsonSchema,
  parseFrontmatter,
  readFrontmatter,
  readHookBody,
  validateFrontmatter,
  type FrontmatterBlock,
  type HookProblem,
} from '../../src/script/index.js';
import { fields, frontmatter, tempDirs } from '../support/hook-folders.js';

const dirs = tempDirs();
afterEach(dirs.cleanup);

/** Writes `text` as `<tmp>/<folder>/HOOK.md` and returns the file's path. */
async function hookMd(text: string | Buffer, folder = 'my-hook'): Promise<string> {
  const root = await dirs.make();
  const { mkdir } = await import('node:fs/promises');
  await mkdir(join(root, folder));
  const file = join(root, folder, 'HOOK.md');
  await writeFile(file, text);
  return file;
}

async function block(file: string): Promise<FrontmatterBlock> {
  const read = await readFrontmatter(file);
  if (!read.ok) throw new Error(`expected a frontmatter: ${read.problems.map((p) => p.message).join('; ')}`);
  return read;
}

const FILE = '/hooks/my-hook/HOOK.md';
const validate = (data: unknown) => validateFrontmatter(data, { file: FILE });
const only = (problems: readonly HookProblem[]): HookProblem => {
  expect(problems).toHaveLength(1);
  return problems[0]!;
};

describe('readFrontmatter', () => {
  it('returns the YAML between the delimiters and where the body starts', async () => {
    const file = await hookMd('---\nname: my-hook\n---\n\n# Body\n');
    const read = await block(file);
    expect(read.text).toBe('name: my-hook\n');
    expect(read.textLine).toBe(2);
    expect(read.bodyOffset).toBe('---\nname: my-hook\n---\n'.length);
    expect(await readHookBody({ file, bodyOffset: read.bodyOffset })).toBe('# Body\n');
  });

  it('reads only the first chunk of a HOOK.md with a 1 MB body, and the body on demand', async () => {
    const body = `# Docs\n\n${'Lorem ipsum dolor sit amet. '.repeat(40_000)}\n`;
    expect(body.length).toBeGreaterThan(1_000_000);
    const file = await hookMd(frontmatter(fields('my-hook')) + '\n' + body);
    const read = await block(file);
    expect(read.bytesRead).toBeLessThan(16 * 1024);
    expect(await readHookBody({ file, bodyOffset: read.bodyOffset })).toBe(body);
  });

  it('reads a typical frontmatter in one small read, never more than one chunk past its end', async () => {
    const file = await hookMd(frontmatter(fields('my-hook')) + '\n' + 'Documentation. '.repeat(1000));
    const read = await block(file);
    expect(read.bytesRead).toBe(FRONTMATTER_CHUNK_BYTES);
    expect(read.bytesRead).toBeLessThanOrEqual(read.bodyOffset + FRONTMATTER_CHUNK_BYTES);
    expect(FRONTMATTER_CHUNK_BYTES).toBeLessThanOrEqual(1024);
  });

  it('is not confused by a --- line in the body', async () => {
    const file = await hookMd('---\nname: my-hook\n---\nabove\n---\nbelow\n---\n');
    const read = await block(file);
    expect(read.text).toBe('name: my-hook\n');
    expect(await readHookBody({ file, bodyOffset: read.bodyOffset })).toBe('above\n---\nbelow\n---\n');
  });

  it('closes only on a line that is exactly ---, not on --- inside a value or an indented block', async () => {
    const text = '---\ndescription: "a --- b"\nnotes: |\n  ---\n  still notes\nname: x---\n---\nbody\n';
    const file = await hookMd(text);
    const read = await block(file);
    const parsed = parseFrontmatter(read, file);
    expect(parsed.ok && parsed.data).toEqual({ description: 'a --- b', notes: '---\nstill notes\n', name: 'x---' });
    expect(await readHookBody({ file, bodyOffset: read.bodyOffset })).toBe('body\n');
  });

  it('accepts CRLF line ends, a byte-order mark, trailing blanks on a delimiter and a last line without newline', async () => {
    const crlf = await block(await hookMd('\uFEFF---\r\nname: a\r\n--- \r\nbody'));
    expect(crlf.text).toBe('name: a\r\n');
    const eof = await hookMd('---\nname: a\n---');
    const read = await block(eof);
    expect(await readHookBody({ file: eof, bodyOffset: read.bodyOffset })).toBe('');
  });

  it('reports a file without an opening --- as no-frontmatter, naming the file', async () => {
    const file = await hookMd('# My hook\n\nname: my-hook\n');
    const read = await readFrontmatter(file);
    expect(read.ok).toBe(false);
    const problem = !read.ok ? only(read.problems) : undefined;
    expect(problem).toMatchObject({ file, line: 1, code: 'no-frontmatter', severity: 'error' });
    expect(problem!.message).toContain('HOOK.md must start with a --- frontmatter block');
    expect((await readFrontmatter(await hookMd(''))).ok).toBe(false);
    expect((await readFrontmatter(await hookMd('\n---\nname: a\n---\n'))).ok).toBe(false);
  });

  it('reports an unterminated frontmatter, naming the file and the opening line', async () => {
    const file = await hookMd('---\nname: my-hook\ndescription: d\n');
    const read = await readFrontmatter(file);
    expect(!read.ok && only(read.problems)).toMatchObject({ file, line: 1, code: 'unterminated-frontmatter' });
  });

  it('gives up on a frontmatter larger than the cap without reading the rest', async () => {
    const file = await hookMd(`---\n${'x: 1\n'.repeat(FRONTMATTER_MAX_BYTES / 4)}---\n`);
    const read = await readFrontmatter(file);
    expect(!read.ok && only(read.problems)).toMatchObject({ file, code: 'frontmatter-too-large' });
    expect(read.bytesRead).toBeLessThanOrEqual(FRONTMATTER_MAX_BYTES);
  });

  it('reports a missing file as missing-file and a folder as unreadable, without throwing', async () => {
    const root = await dirs.make();
    const missing = await readFrontmatter(join(root, 'HOOK.md'));
    expect(!missing.ok && missing.problems[0]!.code).toBe('missing-file');
    const folder = await readFrontmatter(root);
    expect(!folder.ok && folder.problems[0]!.code).toBe('unreadable');
  });

  it('finds the same block whatever the chunk size (lines spanning chunk boundaries)', async () => {
    const line = fc.stringMatching(/^[a-z: "-]{0,30}$/);
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 12 }), fc.array(line, { maxLength: 6 }), fc.integer({ min: 1, max: 64 }), async (yaml, body, chunk) => {
        const fm = yaml.filter((l) => l.trimEnd() !== '---');
        const text = `---\n${fm.map((l) => `${l}\n`).join('')}---\n${body.join('\n')}`;
        const file = await hookMd(text);
        const small = await readFrontmatter(file, { chunkBytes: chunk });
        const big = await readFrontmatter(file);
        expect(small).toEqual({ ...big, bytesRead: small.bytesRead });
        expect(small.ok && small.text).toBe(fm.map((l) => `${l}\n`).join(''));
      }),
      { numRuns: 60 },
    );
  });
});

describe('parseFrontmatter', () => {
  it('reports a YAML syntax error at its line in the HOOK.md file, with no field', async () => {
    // Line 1 is the opening ---, so the bad third line of the YAML is line 4 of the file.
    const file = await hookMd('---\nname: my-hook\ndescription: d\ntrigger: [pre-tool-call\n---\n');
    const parsed = parseFrontmatter(await block(file), file);
    expect(parsed.ok).toBe(false);
    const problem = !parsed.ok ? parsed.problems[0]! : undefined;
    expect(problem).toMatchObject({ file, code: 'yaml-syntax', severity: 'error' });
    expect(problem!.field).toBeUndefined();
    expect(problem!.line).toBeGreaterThanOrEqual(4);
    const tab = await hookMd('---\nname: my-hook\n\tdescription: d\n---\n');
    const tabbed = parseFrontmatter(await block(tab), tab);
    expect(!tabbed.ok && tabbed.problems[0]).toMatchObject({ file: tab, line: 3, code: 'yaml-syntax' });
  });

  it('explains a backslash in a double-quoted regex, as in the spec\'s own example', async () => {
    const file = await hookMd('---\nname: my-hook\nmatcher:\n  pattern: "\\.(py|js|ts)$"\n---\n');
    const parsed = parseFrontmatter(await block(file), file);
    const problem = !parsed.ok ? parsed.problems[0]! : undefined;
    expect(problem).toMatchObject({ file, line: 4, code: 'yaml-syntax' });
    expect(problem!.message).toContain('single quotes');
    const fixed = await hookMd("---\nname: my-hook\nmatcher:\n  pattern: '\\.(py|js|ts)$'\n---\n");
    const ok = parseFrontmatter(await block(fixed), fixed);
    expect(ok.ok && ok.data).toEqual({ name: 'my-hook', matcher: { pattern: '\\.(py|js|ts)$' } });
  });

  it('reports duplicate keys as YAML errors', async () => {
    const file = await hookMd('---\nname: a\nname: b\n---\n');
    const parsed = parseFrontmatter(await block(file), file);
    expect(!parsed.ok && parsed.problems[0]).toMatchObject({ code: 'yaml-syntax', line: 3 });
  });
});

describe('validateFrontmatter', () => {
  it('a value zod cannot name (its constructor\'s name an object without a prototype) is a problem, not a throw', () => {
    const odd = Object.assign(Object.create(null) as Record<string, unknown>, { constructor: { name: Object.create(null) } });
    const { manifest, problems } = validate({ name: 'my-hook', description: 'Guards the shell.', trigger: 'pre-tool-call', matcher: { pattern: odd } });
    expect(manifest).toBeUndefined();
    expect(problems).toEqual([expect.objectContaining({ field: 'matcher.pattern', code: 'invalid-type', severity: 'error' })]);
    expect(problems[0]!.message).toBe('matcher.pattern has the wrong type: it must be a regular expression over the tool input (as JSON).');
  });

  it('applies the defaults and maps the trigger to its canonical event', () => {
    const { manifest, problems } = validate({ name: 'my-hook', description: 'Guards the shell.', trigger: 'pre-tool-call' });
    expect(problems).toEqual([]);
    expect(manifest).toMatchObject({
      name: 'my-hook',
      trigger: 'PreToolUse',
      triggerName: 'pre-tool-call',
      timeout: 30000,
      async: false,
      priority: 100,
      metadata: {},
      matcher: undefined,
      file: FILE,
      dir: '/hooks/my-hook',
      source: 'project',
    });
    expect(Object.isFrozen(manifest)).toBe(true);
  });

  it('keeps explicit values, the matcher and the metadata', () => {
    const { manifest } = validate({
      ...fields('my-hook'),
      matcher: { tool: 'Shell|Bash', pattern: 'rm -rf /' },
      timeout: 5000,
      async: true,
      priority: 999,
      metadata: { failClosed: true, owner: { team: 'sec' } },
    });
    expect(manifest).toMatchObject({
      matcher: { tool: 'Shell|Bash', pattern: 'rm -rf /' },
      timeout: 5000,
      async: true,
      priority: 999,
      metadata: { failClosed: true, owner: { team: 'sec' } },
    });
  });

  it.each(['before_tool', 'pre-tool-call', 'PreToolUse', 'preToolUse', 'BeforeTool'])('accepts %s as PreToolUse', (trigger) => {
    expect(validate(fields('my-hook', { trigger })).manifest?.trigger).toBe('PreToolUse');
  });

  it('accepts every alias of every event, without a dialect (AfterAgent is the canonical observer)', () => {
    for (const event of HOOK_EVENTS) {
      for (const { name } of HookEvent.aliasesOf(event)) {
        const { manifest } = validate(fields('my-hook', { trigger: name }));
        expect(manifest?.trigger).toBe(HookEvent.parse(name));
      }
    }
    expect(validate(fields('my-hook', { trigger: 'AfterAgent' })).manifest?.trigger).toBe('AfterAgent');
    expect(validate(fields('my-hook', { trigger: 'before_stop' })).manifest?.trigger).toBe('Stop');
  });

  const cases: [string, Record<string, unknown>, string, string][] = [
    ['missing name', fields('my-hook', { name: undefined }), 'name', 'missing-field'],
    ['missing description', fields('my-hook', { description: undefined }), 'description', 'missing-field'],
    ['missing trigger', fields('my-hook', { trigger: undefined }), 'trigger', 'missing-field'],
    ['unknown trigger', fields('my-hook', { trigger: 'pre-tool-cal' }), 'trigger', 'unknown-trigger'],
    ['priority above range', fields('my-hook', { priority: 1001 }), 'priority', 'out-of-range'],
    ['priority below range', fields('my-hook', { priority: -1 }), 'priority', 'out-of-range'],
    ['timeout below range', fields('my-hook', { timeout: 99 }), 'timeout', 'out-of-range'],
    ['timeout above range', fields('my-hook', { timeout: 600_001 }), 'timeout', 'out-of-range'],
    ['fractional priority', fields('my-hook', { priority: 1.5 }), 'priority', 'invalid-type'],
    ['quoted timeout', fields('my-hook', { timeout: '30000' }), 'timeout', 'invalid-type'],
    ['async as text', fields('my-hook', { async: 'yes' }), 'async', 'invalid-type'],
    ['metadata as a list', fields('my-hook', { metadata: [1] }), 'metadata', 'invalid-type'],
    ['invalid matcher.tool', fields('my-hook', { matcher: { tool: 'Shell(' } }), 'matcher.tool', 'invalid-regex'],
    ['invalid matcher.pattern', fields('my-hook', { matcher: { pattern: '[a-' } }), 'matcher.pattern', 'invalid-regex'],
    ['unknown key', fields('my-hook', { priorty: 5 }), 'priorty', 'unknown-key'],
    ['unknown matcher key', fields('my-hook', { matcher: { tools: 'x' } }), 'matcher.tools', 'unknown-key'],
    ['name with capitals', fields('my-hook', { name: 'My-Hook' }), 'name', 'invalid-name'],
    ['name with a double hyphen', fields('my-hook', { name: 'my--hook' }), 'name', 'invalid-name'],
    ['name with a trailing hyphen', fields('my-hook', { name: 'my-hook-' }), 'name', 'invalid-name'],
    ['name too long', fields('my-hook', { name: 'a'.repeat(65) }), 'name', 'out-of-range'],
    ['empty description', fields('my-hook', { description: '' }), 'description', 'out-of-range'],
    ['description too long', fields('my-hook', { description: 'd'.repeat(1025) }), 'description', 'out-of-range'],
    ['name unlike the folder', fields('my-hook', { name: 'other-hook' }), 'name', 'name-mismatch'],
  ];
  it.each(cases)('%s: an error naming the file and the field', (_, data, field, code) => {
    const { manifest, problems } = validate(data);
    expect(manifest).toBeUndefined();
    const problem = only(problems);
    expect(problem).toMatchObject({ file: FILE, field, code, severity: 'error' });
    expect(problem.message.length).toBeGreaterThan(10);
    expect(problem.allowed).toBeTruthy();
    if (code !== 'missing-field') expect(problem.found).toBeTruthy();
  });

  it('offers close matches for an unknown trigger, one per event', () => {
    const problem = only(validate(fields('my-hook', { trigger: 'pre-tool-cal' })).problems);
    // Best first, one spelling per event (pre-tool-call, not also PreToolUse and preToolUse), at most three.
    expect(problem.allowed).toMatch(/^did you mean pre-tool-call(, [\w-]+){0,2}\?$/);
    expect(problem.allowed).not.toContain('PreToolUse');
    expect(problem.message).toContain('did you mean pre-tool-call');
    expect(only(validate(fields('my-hook', { trigger: 'before_tol' })).problems).allowed).toMatch(/^did you mean before_tool/);
    const far = only(validate(fields('my-hook', { trigger: 'whenever' })).problems);
    expect(far.allowed).toContain('pre-tool-call');
    expect(far.allowed).toContain('PreToolUse');
  });

  it('suggests the intended key for a misspelt or foreign one', () => {
    expect(only(validate(fields('my-hook', { priorty: 5 })).problems).message).toContain('did you mean priority?');
    const problems = validate({ ...fields('my-hook', { trigger: undefined }), event: 'pre-tool-call' }).problems;
    expect(problems.find((p) => p.field === 'event')?.message).toContain('did you mean trigger?');
    expect(only(validate(fields('my-hook', { tool: 'Shell' })).problems).message).toContain('matcher.tool');
    expect(only(validate(fields('my-hook', { color: 'red' })).problems).message).toContain('metadata');
  });

  it('reports one problem per unknown key, and every problem of a file at once', () => {
    const { problems } = validate({ name: 'My Hook', trigger: 'nope', priority: 5000, foo: 1, bar: 2 });
    expect(problems.map((p) => [p.field, p.code])).toEqual([
      ['name', 'invalid-name'],
      ['description', 'missing-field'],
      ['trigger', 'unknown-trigger'],
      ['priority', 'out-of-range'],
      ['foo', 'unknown-key'],
      ['bar', 'unknown-key'],
    ]);
  });

  it('says that a timeout is in milliseconds when it looks like seconds', () => {
    expect(only(validate(fields('my-hook', { timeout: 30 })).problems).message).toContain('30000');
  });

  it('warns that a matcher on a non-tool event is ignored, and loads the hook without it', () => {
    const { manifest, problems } = validate(fields('my-hook', { trigger: 'pre-session', matcher: { tool: 'Shell' } }));
    expect(manifest?.matcher).toBeUndefined();
    expect(only(problems)).toMatchObject({ file: FILE, field: 'matcher', severity: 'warning', code: 'ignored-matcher' });
  });

  it('warns when matcher.tool can match no tool any agent has, and still loads the hook', () => {
    for (const tool of ['Shel$', '^Bash2$', 'deploy_prod']) {
      const { manifest, problems } = validate(fields('my-hook', { trigger: 'pre-tool-call', matcher: { tool } }));
      expect(manifest?.matcher?.tool, tool).toBe(tool);
      expect(only(problems), tool).toMatchObject({ file: FILE, field: 'matcher.tool', severity: 'warning', code: 'unknown-tool' });
      expect(only(problems).message).toContain('tool: Shell');
    }
    // The HOOK.md names, any agent's own names, and MCP patterns are quiet.
    for (const tool of ['Shell', '^Shell$', 'Bash', '^bash$', 'run_shell_command', 'WriteFile|StrReplaceFile', 'Read', 'mcp__github__.*', '^mcp_']) {
      expect(validate(fields('my-hook', { trigger: 'pre-tool-call', matcher: { tool } })).problems, tool).toEqual([]);
    }
  });

  it('reads an empty frontmatter as an empty mapping, and rejects a list or a scalar', () => {
    expect(validate(null).problems.map((p) => p.code)).toEqual(['missing-field', 'missing-field', 'missing-field']);
    const list = only(validate(['name']).problems);
    expect(list).toMatchObject({ file: FILE, code: 'invalid-type' });
    expect(list.field).toBeUndefined();
    expect(only(validate('name: x').problems)).toMatchObject({ code: 'invalid-type' });
  });

  it('never throws, and gives either a manifest or at least one problem with a message and a file', () => {
    const known = ['name', 'description', 'trigger', 'matcher', 'timeout', 'async', 'priority', 'metadata', '__proto__', 'constructor'];
    const valueOf = fc.oneof(
      fc.anything(),
      fc.constantFrom('my-hook', 'pre-tool-call', 'before_tool', '(', '', 'x'.repeat(2000)),
      fc.integer({ min: -10, max: 700_000 }),
      fc.record({ tool: fc.oneof(fc.string(), fc.anything()), pattern: fc.string() }, { requiredKeys: [] }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(fc.constantFrom(...known), fc.string()), valueOf), fc.boolean(), (data, valid) => {
        const input = valid ? { ...fields('my-hook'), ...data } : data;
        const { manifest, problems } = validate(input);
        if (manifest === undefined) {
          expect(problems.some((p) => p.severity === 'error')).toBe(true);
        } else {
          expect(problems.every((p) => p.severity === 'warning')).toBe(true);
        }
        for (const p of problems) {
          expect(p.file).toBe(FILE);
          expect(p.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('hookFrontmatterJsonSchema', () => {
  const schema = hookFrontmatterJsonSchema as {
    type: string;
    required: string[];
    additionalProperties: boolean;
    properties: Record<string, { enum?: string[]; default?: unknown; minimum?: number; maximum?: number; pattern?: string; additionalProperties?: boolean }>;
  };

  it('requires name, description and trigger, and forbids other keys', () => {
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'description', 'trigger']));
    expect(schema.required).toHaveLength(3);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties['matcher']!.additionalProperties).toBe(false);
  });

  it('lists every trigger name as an enum, exactly those the loader accepts', () => {
    const names = schema.properties['trigger']!.enum!;
    expect(names).toEqual(expect.arrayContaining(['pre-tool-call', 'before_tool', 'PreToolUse']));
    expect(names).toEqual([...HOOK_TRIGGER_NAMES]);
    expect(names.every((name) => HookEvent.tryParse(name) !== undefined)).toBe(true);
    const all = new Set(HOOK_EVENTS.flatMap((e) => HookEvent.aliasesOf(e).map((a) => a.name)));
    expect(new Set(names)).toEqual(all);
  });

  it('carries the ranges, the defaults and the name pattern', () => {
    expect(schema.properties['priority']).toMatchObject({ minimum: 0, maximum: 1000, default: 100 });
    expect(schema.properties['timeout']).toMatchObject({ minimum: 100, maximum: 600000, default: 30000 });
    expect(schema.properties['async']).toMatchObject({ default: false });
    // JSON Schema reads its patterns with Unicode semantics (the u flag).
    expect(new RegExp(schema.properties['name']!.pattern!, 'u').test('my-hook')).toBe(true);
    expect(new RegExp(schema.properties['name']!.pattern!, 'u').test('café-hook')).toBe(true);
    expect(new RegExp(schema.properties['name']!.pattern!, 'u').test('my--hook')).toBe(false);
  });
});
