/**
 * Every TypeScript block of the README and of docs/ compiles against the library as it is: a renamed option or a
 * removed export breaks the docs' build, not a reader's first try. Strictly, with `noImplicitReturns` besides the
 * project's own options: a reader's project may have it on, and a hook that returns an outcome on one path only
 * would not compile there. Blocks are fragments, as docs are written: what a
 * block uses from `agent-hooks` without importing it is imported for it, and the few names the docs leave to the
 * reader (`model`, `bash`, …) are declared in `snippet-prelude.d.ts` with the types a reader would have. Blocks that
 * run and print are also run, by the examples' and README's own tests.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Inside the repository, so that the tsconfig's paths resolve 'agent-hooks' to the sources.
const out = fileURLToPath(new URL('./snippets.generated/', import.meta.url));
const prelude = fileURLToPath(new URL('./snippet-prelude.d.ts', import.meta.url));

afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The documents whose blocks are checked. */
const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

interface Block {
  readonly document: string;
  /** The line of the opening fence. */
  readonly line: number;
  readonly code: string;
}

function blocksOf(document: string): Block[] {
  const lines = readFileSync(join(root, document), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```ts') continue;
    const end = lines.indexOf('```', i + 1);
    blocks.push({ document, line: i + 1, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

/** Every name `agent-hooks` exports, read by the compiler from the entry point: whether it is a value, by name. */
function exportedNames(options: ts.CompilerOptions): Map<string, boolean> {
  const entry = join(root, 'src', 'index.ts');
  const program = ts.createProgram([entry], options);
  const checker = program.getTypeChecker();
  const symbol = checker.getSymbolAtLocation(program.getSourceFile(entry)!)!;
  return new Map(
    checker.getExportsOfModule(symbol).map((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      return [s.getName(), (target.flags & ts.SymbolFlags.Value) !== 0];
    }),
  );
}

/** The names `code` declares itself. */
const declaredNames = (code: string): Set<string> =>
  new Set([...code.matchAll(/\b(?:class|interface|type|const|let|var|function)\s+([A-Za-z_]\w*)/g)].map((m) => m[1]!));

/** The names `code` imports itself, from any module. */
function importedNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const [, list] of code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from/g)) {
    for (const item of list!.split(',')) {
      const name = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()!.trim();
      if (name !== '') names.add(name);
    }
  }
  return names;
}

function compilerOptions(): ts.CompilerOptions {
  const file = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(file, ts.sys.readFile).config as object;
  return ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, file).options;
}

describe('the code blocks of the README and docs/', () => {
  const blocks = documents.flatMap(blocksOf);

  it('are there to check', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    expect(documents).toContain('docs/concepts.md');
  });

  it('each compile against the library', () => {
    const options = compilerOptions();
    const exported = exportedNames(options);
    mkdirSync(out, { recursive: true });
    const files = blocks.map((block, i) => {
      const own = new Set([...importedNames(block.code), ...declaredNames(block.code)]);
      const words = new Set(block.code.match(/\b[A-Za-z_]\w*\b/g) ?? []);
      const needed = [...words].filter((w) => exported.has(w) && !own.has(w)).sort();
      const header = needed.length > 0 ? `import { ${needed.map((n) => (exported.get(n) ? n : `type ${n}`)).join(', ')} } from 'agent-hooks';\n` : '';
      const file = join(out, `${i}-${block.document.replace(/[/.]/g, '-')}-${block.line}.ts`);
      // One line of header at most, so that a diagnostic's line maps back to the document's.
      writeFileSync(file, `${header || '\n'}${block.code}\nexport {};\n`);
      return { file, block };
    });
    const program = ts.createProgram([prelude, ...files.map((f) => f.file)], { ...options, noEmit: true, noUnusedLocals: false, noImplicitReturns: true });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const at = files.find((f) => f.file === d.file?.fileName);
      const line = d.file !== undefined && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
      const where = at !== undefined ? `${at.block.document}:${at.block.line + line}` : d.file !== undefined ? relative(root, d.file.fileName) : '?';
      return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  }, 120_000);
});
