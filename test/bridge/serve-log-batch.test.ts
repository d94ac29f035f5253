/**
 * `serve`'s log lines go out together, one write per turn of the event loop rather than one per request, and none is
 * lost when the process exits right after writing it.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { batchedSink, serveLog } from '../../src/bridge/serve/serve-log.js';

it('hands the lines written in one turn to the sink in one call, in order', async () => {
  const writes: string[] = [];
  const log = serveLog('text', 'info', batchedSink((text) => writes.push(text)));
  for (let id = 1; id <= 3; id++) log.write('info', 'hook request', { id });
  expect(writes).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(writes).toHaveLength(1);
  expect(writes[0]!.split('\n').filter(Boolean).map((line) => line.replace(/^\S+ /, ''))).toEqual(['INFO  hook request id=1', 'INFO  hook request id=2', 'INFO  hook request id=3']);
  log.write('warn', 'later');
  await new Promise((resolve) => setImmediate(resolve));
  expect(writes).toHaveLength(2);
});

it('writes the lines still held when the process exits', () => {
  const module = pathToFileURL(join(import.meta.dirname, '..', '..', 'src', 'bridge', 'serve', 'serve-log.ts')).href;
  const script = `import { batchedSink } from ${JSON.stringify(module)};
const sink = batchedSink((text) => process.stderr.write(text));
sink('first\\n');
sink('last\\n');
process.exit(0);`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: join(import.meta.dirname, '..', '..') });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stderr).toBe('first\nlast\n');
});
