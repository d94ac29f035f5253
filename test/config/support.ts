import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import { tempDir, writeExecutable } from '../support/script-fixture.js';

/** A home and a project directory, removed after each test. */
export function sandbox() {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
  return async () => {
    const { dir, cleanup } = await tempDir('agent-hooks-config-');
    cleanups.push(cleanup);
    const home = join(dir, 'home');
    const project = join(dir, 'project');
    await mkdir(home, { recursive: true });
    await mkdir(project, { recursive: true });
    /** Writes `value` (JSON, or text as is) to `path` under `root`. */
    const write = async (root: string, path: string, value: unknown): Promise<string> => {
      const file = join(root, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
      return file;
    };
    /** Writes an executable script under the project. */
    const script = async (path: string, text: string): Promise<string> => {
      await mkdir(dirname(join(project, path)), { recursive: true });
      return writeExecutable(join(project, path), text);
    };
    return { home, project, write, script };
  };
}
