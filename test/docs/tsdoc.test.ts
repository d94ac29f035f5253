import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The public entry points: the package's main one and its subpaths. */
const ENTRY_POINTS = ['src/index.ts', 'src/integrations/otel/index.ts', 'src/integrations/postgres/index.ts', 'src/integrations/redis/index.ts', 'src/integrations/sqlite/index.ts', 'src/agents/opencode/index.ts'];

/** The doc comment text of a declaration (for a variable, the comment of its statement), without tags. */
function docText(declaration: ts.Declaration): string {
  return ts
    .getJSDocCommentsAndTags(declaration)
    .filter(ts.isJSDoc)
    .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
    .join('\n')
    .trim();
}

/**
 * Every symbol `entry` exports (aliases resolved to what they stand for) whose declarations lack a non-empty doc
 * comment, as `name (file:line)`. An overloaded function needs one documented signature; its implementation needs none.
 */
function undocumentedExports(program: ts.Program, entry: string): string[] {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (source === undefined) throw new Error(`${entry} is not part of the program.`);
  const module = checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`${entry} exports nothing.`);
  const missing: string[] = [];
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarations = symbol.getDeclarations() ?? [];
    const functions = declarations.filter(ts.isFunctionDeclaration);
    const overloads = functions.filter((f) => f.body === undefined);
    for (const declaration of declarations) {
      if (ts.isFunctionDeclaration(declaration) && functions.length > 1) {
        // One doc comment for an overload set: on any signature, not on the implementation.
        if (declaration !== (overloads[0] ?? functions[0]) || functions.some((f) => docText(f) !== '')) continue;
      }
      if (docText(declaration) !== '') continue;
      const file = declaration.getSourceFile();
      const { line } = file.getLineAndCharacterOfPosition(declaration.getStart());
      missing.push(`${exported.getName()} (${relative(root, file.fileName)}:${line + 1})`);
    }
  }
  return missing;
}

function projectProgram(): ts.Program {
  const configFile = ts.readConfigFile(resolve(root, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
  return ts.createProgram(
    ENTRY_POINTS.map((e) => resolve(root, e)),
    config.options,
  );
}

/** A program over in-memory files, for checking the checker. */
function memoryProgram(files: Record<string, string>): ts.Program {
  const options: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, noLib: true, types: [] };
  const host = ts.createCompilerHost(options);
  const real = { ...host };
  host.fileExists = (f) => f in files || real.fileExists(f);
  host.directoryExists = (d) => Object.keys(files).some((f) => f.startsWith(`${d}/`)) || (real.directoryExists?.(d) ?? false);
  host.readFile = (f) => files[f] ?? real.readFile(f);
  host.getSourceFile = (f, lang) => (f in files ? ts.createSourceFile(f, files[f]!, lang) : real.getSourceFile(f, lang));
  return ts.createProgram(Object.keys(files).filter((f) => f.endsWith('index.ts')), options, host);
}

describe('doc comments', () => {
  it.each(ENTRY_POINTS)('every symbol exported from %s has one', (entry) => {
    const missing = undocumentedExports(projectProgram(), resolve(root, entry));
    expect(missing, `exported without a doc comment:\n  ${missing.join('\n  ')}`).toEqual([]);
  });

  it('the check finds what lacks one: through re-exports and aliases, on every declaration of a merged symbol', () => {
    const program = memoryProgram({
      '/p/index.ts': `export * from './a';\nexport { hidden as renamed } from './b';\n/** Documented. */\nexport const ok = 1;\n`,
      '/p/a.ts': `export interface Bare {}\n/** A class. */\nexport class Fine {}\n/** A type. */\nexport type Twice = string;\nexport const Twice = 1;\n/** @internal */\nexport function tagged() {}\n`,
      '/p/b.ts': `export function hidden(): void {}\n/** Overloads: one signature documented is enough. */\nexport function over(a: string): void;\nexport function over(a: number): void;\nexport function over(a: unknown): void {}\n`,
    });
    const at = (file: string, line: number) => `${relative(root, file)}:${line}`;
    // Tags alone (`@internal`) are not documentation.
    expect(undocumentedExports(program, '/p/index.ts').sort()).toEqual(
      [`Bare (${at('/p/a.ts', 1)})`, `Twice (${at('/p/a.ts', 6)})`, `tagged (${at('/p/a.ts', 8)})`, `renamed (${at('/p/b.ts', 1)})`].sort(),
    );
  });
});
