/**
 * A child process of the cross-process test: builds the agent of `interrupt-support.ts` on a project whose Claude Code
 * hook asks about deploys, and either runs it to its interruption or resumes a snapshot, writing what it saw as JSON.
 *
 *   node --import tsx interrupt-process.ts run <project> <scenario.json> <out.json>
 *   node --import tsx interrupt-process.ts resume <project> <scenario.json> <snapshot.json> <decisions.json> <out.json>
 */
import { readFile, writeFile } from 'node:fs/promises';
import { buildAgent, outcomeOf, type Scenario } from './interrupt-support.js';

const [command, project, scenarioFile, ...rest] = process.argv.slice(2);
const scenario = JSON.parse(await readFile(scenarioFile!, 'utf8')) as Scenario;
const trace: string[] = [];
const agent = buildAgent(scenario, { kind: 'interrupt' }, trace, project);
let out: string;
let result;
if (command === 'run') {
  out = rest[0]!;
  result = await agent.run('Ship it');
} else {
  const [snapshotFile, decisionsFile, outFile] = rest;
  out = outFile!;
  const snapshot = JSON.parse(await readFile(snapshotFile!, 'utf8'));
  result = await agent.resume(snapshot, JSON.parse(await readFile(decisionsFile!, 'utf8')));
}
await writeFile(out, JSON.stringify({ trace, pid: process.pid, status: result.status, outcome: outcomeOf(result), interruption: result.interruption ?? null }));
