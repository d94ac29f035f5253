/**
 * The library's split builds keep the agent runtime in the chunk that holds the core: with the runtime's modules in one
 * chunk and the stack, the contexts' base class and the outcomes in another, an agent step with hooks on every event
 * took about twice as long (`npm run bench -- agent-built`). esbuild puts a module in the chunk of the entry points
 * that reach it, so an entry point that reaches the core without the runtime splits them; tsup.config.ts keeps them
 * together, and this fails when a new entry point splits them again.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILD_TIMEOUT_MS, ensureCliBuilt } from '../support/build.js';

const dist = join(import.meta.dirname, '..', '..', 'dist');

/** The files `entry` loads without a dynamic import: relative `import … from`, bare `import` and `require()`. */
function staticGraph(entry: string): string[] {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, spec] of source.matchAll(/(?:\bfrom\s*|^import\s*|\brequire\()["'](\.\/[^"']+)["']/gm)) {
      queue.push(join(dirname(file), spec!));
    }
  }
  return [...seen];
}

/** The classes of a hooked agent step: the stack and the contexts' base from the core, the rest from the runtime. */
const CLASSES = ['HookStack', 'HookContextBase', 'StepHookContextClass', 'ModelHookContextClass', 'RunCore'];

describe('the library build', () => {
  beforeAll(ensureCliBuilt, BUILD_TIMEOUT_MS);

  it.each(['index.js', 'index.cjs'])('%s: the core and the agent runtime are in one chunk', (entry) => {
    const files = staticGraph(join(dist, entry)).map((file) => ({ file, source: readFileSync(file, 'utf8') }));
    const where = Object.fromEntries(
      CLASSES.map((name) => {
        // `var HookStack = class …`, or in the CommonJS build `HookStack = (_class5 = class …`.
        const defines = new RegExp(`\\b${name} = (?:\\(_class\\d+ = )?class\\b`);
        return [name, files.filter(({ source }) => defines.test(source)).map(({ file }) => file.slice(dist.length + 1))];
      }),
    );
    for (const name of CLASSES) expect(where[name], `${name} is defined once in ${entry}'s graph`).toHaveLength(1);
    expect(new Set(CLASSES.map((name) => where[name]![0])), JSON.stringify(where)).toHaveProperty('size', 1);
  });
});
