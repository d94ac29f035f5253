import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
// Inside the repository, so that 'agent-hooks' resolves through tsconfig paths as in the examples.
const snippetFile = fileURLToPath(new URL('./readme-snippet.generated.ts', import.meta.url));

afterAll(() => rmSync(snippetFile, { force: true }));

describe('README', () => {
  it('the "In thirty lines" example runs and decides what its comments say', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## In thirty lines'));
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code, 'a ts code block under "In thirty lines"').toBeDefined();
    writeFileSync(snippetFile, `${code}\nconsole.log(JSON.stringify([outcome.isBlocked(), outcome.reason, gate.reason]));\n`);
    const { stdout } = await run(tsx, [snippetFile], { cwd: root, timeout: 60_000 });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual([true, 'Destructive command refused', 'Run the tests first']);
  });
});
