import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse, parseDocument } from 'yaml';
import { parseSimpleYaml } from '../../src/script/internal/simple-yaml.js';

/** What the `yaml` package makes of `text`, or `undefined` when it reports an error. */
function reference(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return undefined;
  return doc.toJS();
}

describe('the frontmatter fast path', () => {
  it('reads the usual frontmatter exactly as yaml does', () => {
    const text = [
      'name: block-dangerous-commands',
      'description: Blocks dangerous shell commands (rm -rf /, mkfs) — 确保安全',
      'trigger: before_tool   # the old name',
      'matcher:',
      '  tool: "Shell"  # 工具名正则匹配',
      "  pattern: 'rm -rf /|mkfs|dd if=/dev/zero'",
      'timeout: 5000',
      'async: false',
      'priority: 999',
      '',
      '# trailing comment',
    ].join('\n');
    const fast = parseSimpleYaml(text);
    expect(fast).toBeDefined();
    expect(isDeepStrictEqual(fast, parse(text))).toBe(true);
  });

  it('declines what it does not handle', () => {
    for (const text of [
      '',
      'a: 1.5',
      'a: 007',
      'a: [1, 2]',
      'a: |\n  text',
      'a: "esc\\"aped"',
      'a: b\n  continued',
      'a:\n  b:\n    c: 1',
      'a:\n  - 1',
      'a: x\na: y',
      '__proto__: 1',
      'null: 1',
      'a: Null',
      'a: ~',
      'a: &anchor x',
      'a:b',
      '\ta: 1',
      'a: -x',
    ]) {
      expect(parseSimpleYaml(text), text).toBeUndefined();
    }
  });

  it('never disagrees with yaml on what it accepts', () => {
    const word = fc.constantFrom(
      'name', 'trigger', 'on', 'yes', 'No', 'TRUE', 'true', 'false', 'null', 'Null', '~', '0', '-0', '007', '12', '-3', '1.5',
      '1e3', '.inf', '0x1F', '0o7', 'a', 'Shell|Bash', 'rm -rf /', '#', ' #', ': ', ':', '"', "'", "''", '\\', '\\.', '-', '- ',
      '?', '!', '&', '*', '|', '>', '%', '@', '`', '[', ']', '{', '}', ',', ' ', '  ', '\t', '\r', '(', '/', '确保', '\u00a0',
      '\u2028', '\ufeff', '\u0085', '---', '...', 'x: y', '__proto__', 'constructor', 'é', 'foo bar', '9007199254740993',
    );
    const value = fc.array(word, { maxLength: 4 }).map((parts) => parts.join(''));
    const key = fc.oneof(fc.constantFrom('name', 'trigger', 'matcher', 'tool', 'pattern', 'metadata', 'on', 'true', 'null', '__proto__', 'a-b', 'x_1'), fc.string({ maxLength: 6 }));
    const indent = fc.constantFrom('', '', '', '  ', '  ', '    ', ' ', '\t');
    const line = fc.oneof(
      fc.tuple(indent, key, fc.constantFrom(': ', ':', ' : ', ':  '), value).map(([i, k, sep, v]) => `${i}${k}${sep}${v}`),
      fc.tuple(indent, fc.constantFrom('# note', '', '  ', '- item')).map(([i, t]) => `${i}${t}`),
      fc.tuple(indent, key).map(([i, k]) => `${i}${k}:`),
      fc.tuple(indent, key, fc.constantFrom('"', "'"), value).map(([i, k, q, v]) => `${i}${k}: ${q}${v}${q}`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        const text = lines.join(eol) + eol;
        const fast = parseSimpleYaml(text);
        if (fast === undefined) return;
        expect(isDeepStrictEqual(fast, reference(text)), JSON.stringify(text)).toBe(true);
      }),
      { numRuns: 10_000 },
    );
  });

  it('never disagrees with yaml on frontmatter-like text, which it mostly accepts', () => {
    const word = fc.constantFrom(
      'my-hook', 'Shell', 'rm -rf /|mkfs', 'true', 'false', '12', '0', '-3', 'yes', 'on', 'Null', 'a#b', 'x:y', '(a)',
      '/etc/passwd', 'C:\\tmp', '确保测试', 'é', 'a b', 'q"r', "s't", ' #c', '#',
    );
    const value = fc.array(word, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(' '));
    const key = fc.constantFrom('name', 'description', 'trigger', 'matcher', 'tool', 'pattern', 'timeout', 'async', 'priority', 'metadata', 'on', 'yes', 'a-b', 'x_1');
    const indent = fc.constantFrom('', '', '', '  ', '   ');
    const line = fc.oneof(
      { weight: 6, arbitrary: fc.tuple(indent, key, value).map(([i, k, v]) => `${i}${k}: ${v}`) },
      { weight: 2, arbitrary: fc.tuple(indent, key, fc.constantFrom('"', "'"), value).map(([i, k, q, v]) => `${i}${k}: ${q}${v}${q}`) },
      { weight: 2, arbitrary: fc.tuple(indent, key).map(([i, k]) => `${i}${k}:`) },
      { weight: 1, arbitrary: fc.constantFrom('# c', '', '  # c') },
    );
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 10 }), (lines) => {
        const text = lines.join('\n') + '\n';
        const fast = parseSimpleYaml(text);
        if (fast === undefined) return;
        accepted++;
        expect(isDeepStrictEqual(fast, reference(text)), JSON.stringify(text)).toBe(true);
      }),
      { numRuns: 10_000 },
    );
    expect(accepted).toBeGreaterThan(500);
  });
});
