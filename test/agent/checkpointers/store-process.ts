/**
 * A child process of the conformance suite: opens the store its config names, and runs the agent of
 * `interrupt-support.ts` to its interruption (saved in that store), or resumes it there by id, approving what waits.
 * Writes what it saw as one line of JSON on stdout.
 *
 *   node --import tsx store-process.ts '<config>' run <id>
 *   node --import tsx store-process.ts '<config>' resume <id> [--wait]   (--wait: says "ready", starts on a line of stdin)
 */
import { buildAgent } from '../interrupt-support.js';
import { DEPLOY_SCENARIO, toolsRun } from './scenario.js';
import { openStore, type StoreConfig } from './stores.js';

const [configJson, command, id, wait] = process.argv.slice(2);
const store = await openStore(JSON.parse(configJson!) as StoreConfig);
const trace: string[] = [];
const agent = buildAgent(DEPLOY_SCENARIO, { kind: 'interrupt', checkpointer: store.checkpointer }, trace);
if (wait === '--wait') {
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
}
let out: Record<string, unknown>;
try {
  if (command === 'run') {
    const result = await agent.run('Ship it', { checkpointId: id! });
    out = { status: result.status, pending: result.interruption?.pending.map((p) => p.id) ?? [] };
  } else {
    const saved = await store.checkpointer.load(id!);
    const decisions = Object.fromEntries((saved?.pending ?? []).map((p) => [p.id, { approved: true }]));
    const result = await agent.resume(id!, decisions);
    out = { status: result.status, text: result.text };
  }
} catch (error) {
  const e = error as { name?: string; code?: string; message?: string };
  out = { error: { name: e.name, code: e.code, message: e.message } };
}
await store.close();
process.stdout.write(`${JSON.stringify({ ...out, pid: process.pid, toolsRun: toolsRun(trace) })}\n`);
process.exit(0);
