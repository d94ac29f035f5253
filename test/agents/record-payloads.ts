/**
 * Records what each pinned agent really sends its hooks, as fixtures: `test/agents/fixtures/<agent>/<version>/<event>.json`,
 * scrubbed of temporary paths, ids and timestamps (every key kept). Kept per version, so that a new pin's changed
 * field shows up as a diff. Run it after changing a pin in agents.json:
 *
 *     npx tsx test/agents/record-payloads.ts [agent …]
 *
 * Each agent runs one headless session against the mock model (a shell call, then a final answer) with every event
 * it has bridged; the payloads are caught on their way to the real bridge (see support/payload-recorder.ts), or by
 * the driver's own recorder where the agent has no command hooks the bridge installs into yet.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { claudeDriver } from './drivers/claude.js';
import { clineDriver } from './drivers/cline.js';
import { codexDriver } from './drivers/codex.js';
import { copilotDriver } from './drivers/copilot.js';
import { droidDriver } from './drivers/droid.js';
import { geminiDriver } from './drivers/gemini.js';
import { kiloDriver, opencodeDriver } from './drivers/opencode.js';
import { qwenDriver } from './drivers/qwen.js';
import { makeProject, pinOf, REPO, type AgentDriver } from './support/harness.js';
import { startMockServer } from './support/mock-server.js';
import { recordedPayloads, recordPayloads, writeFixtures } from './support/payload-recorder.js';

const DRIVERS: readonly AgentDriver[] = [claudeDriver, geminiDriver, codexDriver, copilotDriver, qwenDriver, droidDriver, clineDriver, opencodeDriver, kiloDriver];
const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !DRIVERS.some((d) => d.name === name));
if (unknown.length > 0) {
  process.stderr.write(`No such agent: ${unknown.join(', ')}. The agents are ${DRIVERS.map((d) => d.name).join(', ')}.\n`);
  process.exit(2);
}

for (const driver of DRIVERS.filter((d) => wanted.length === 0 || wanted.includes(d.name))) {
  const project = makeProject(['context-session']);
  const mock = await startMockServer(driver.api(), [{ shell: 'touch recorded.txt' }, { text: 'Done.' }]);
  try {
    recordPayloads(project);
    await driver.configure(project, mock, { events: EVENTS, timeoutSec: 30, record: true });
    const run = await driver.run(project, mock, 'Create recorded.txt.', 120_000);
    const payloads = recordedPayloads(project);
    const dir = join(REPO, 'test', 'agents', 'fixtures', driver.name, pinOf(driver.name).version);
    // Recorded afresh; a CHANGES.md that acknowledges this version's changed fields stays.
    for (const file of existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : []) rmSync(join(dir, file));
    const files = writeFixtures(dir, project, payloads);
    process.stdout.write(`${driver.name} ${pinOf(driver.name).version}: exit ${run.exitCode}, ${files.length} payloads: ${payloads.map((p) => p.event).join(', ')}\n`);
    if (run.exitCode !== 0 || files.length === 0) process.stdout.write(`${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}\n`);
  } finally {
    await mock.close();
    project.remove();
  }
}
