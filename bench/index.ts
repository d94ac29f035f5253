/**
 * `npm run bench [suite…]`: the benchmark suites (all of them, or the ones named), a table on stdout and a JSON report
 * under bench/results/. Figures that matter are ratios against a baseline measured in the same run; absolute numbers
 * vary with the machine and its load.
 */
import { loadavg } from 'node:os';
import { agentSuite } from './agent.js';
import { agentBuiltSuite } from './agent-built.js';
import { aiSdkSuite } from './ai-sdk.js';
import { agentBridgeSuite } from './agent-bridge.js';
import { bridgeSuite } from './bridge.js';
import { discoverySuite } from './discovery.js';
import { dispatchSuite } from './dispatch.js';
import { emptySuite } from './empty.js';
import { interruptsSuite } from './interrupts.js';
import { loadSuite } from './load.js';
import { printTable, writeReport, type Row } from './harness.js';
import { memorySuite } from './memory.js';
import { modelEventsSuite } from './model-events.js';
import { parallelSuite } from './parallel.js';
import { scaleSuite } from './scale.js';
import { scriptSuite } from './script.js';
import { serveSuite } from './serve.js';
import { servedLineSuite } from './served-line.js';
import { sideBySide } from './side-by-side.js';
import { syncSuite } from './sync.js';
import { trustSuite } from './trust.js';

const suites: Record<string, () => Promise<Row[]>> = {
  dispatch: dispatchSuite,
  sync: syncSuite,
  scale: scaleSuite,
  empty: emptySuite,
  script: scriptSuite,
  discovery: discoverySuite,
  agent: agentSuite,
  'agent-built': agentBuiltSuite,
  'model-events': modelEventsSuite,
  interrupts: interruptsSuite,
  memory: memorySuite,
  load: loadSuite,
  trust: trustSuite,
  'agent-bridge': agentBridgeSuite,
  // What a bridged hook call costs the agent, both ways: a process per call, and agent-hooks serve.
  bridge: async () => [...(await bridgeSuite()), ...(await serveSuite())],
  // serve alone; the whole run has it in `bridge`.
  serve: serveSuite,
  // A command agent's hook line to serve (through bash, and with curl), against a Node start and the command bridge.
  'served-line': servedLineSuite,
  'ai-sdk': aiSdkSuite,
  parallel: parallelSuite,
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in suites));
if (unknown.length > 0) {
  console.error(`Unknown suite ${unknown.join(', ')}. Suites: ${Object.keys(suites).join(', ')} (none named: all of them).`);
  process.exit(2);
}
const chosen = asked.length > 0 ? Object.keys(suites).filter((name) => asked.includes(name)) : Object.keys(suites).filter((name) => name !== 'serve');
const started = { at: new Date(), load: loadavg() };
const rows: Row[] = [];
for (const name of chosen) {
  const t0 = performance.now();
  rows.push(...(await suites[name]!()));
  console.error(`${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
printTable(rows);
const nodes = sideBySide(rows);
if (nodes !== undefined) console.log(`\nThe bridge under each Node:\n\n${nodes}`);
console.log(`\nReport: ${writeReport(rows, chosen, started, asked.length === 0)}`);
