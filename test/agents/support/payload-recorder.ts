/**
 * Records what an agent really sends its command hooks: the project's `node_modules/.bin/agent-hooks` becomes a
 * shim that keeps each payload (under `evidence/raw/`, one file per call, named by the event) and then hands it,
 * with the same arguments, to the real `agent-hooks`, whose answer the agent gets unchanged.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentProject } from './harness.js';

const SHIM = `#!/usr/bin/env node
// Keeps the payload, then runs the real agent-hooks with it.
const { spawnSync } = require('node:child_process');
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const real = join(__dirname, 'agent-hooks-real');
// Only what an agent sends the bridge is a payload; the suite's own commands (bridge --install, trust) pass through.
if (!process.argv.includes('--from')) process.exit(spawnSync(real, process.argv.slice(2), { stdio: 'inherit' }).status ?? 1);
const input = readFileSync(0);
let payload = {};
try { payload = JSON.parse(input.toString('utf8')); } catch {}
const flag = process.argv.indexOf('--event');
const event = flag > 0 ? process.argv[flag + 1] : payload.hook_event_name || payload.hookEventName || payload.hookName || 'unknown';
const dir = join(process.env.AGENT_HOOKS_EVIDENCE, 'raw');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, \`\${Date.now()}-\${process.pid}-\${String(event).replace(/[^\\w.-]/g, '_')}.json\`), input);
process.exit(spawnSync(real, process.argv.slice(2), { input, stdio: ['pipe', 'inherit', 'inherit'] }).status ?? 1);
`;

/** Puts the recording shim in front of the project's `agent-hooks`. */
export function recordPayloads(project: AgentProject): void {
  const bin = join(project.dir, 'node_modules', '.bin');
  const real = join(bin, 'agent-hooks-real');
  if (!existsSync(real)) renameSync(join(bin, 'agent-hooks'), real);
  writeFileSync(join(bin, 'agent-hooks'), SHIM.replace('#!/usr/bin/env node', `#!${process.execPath}`));
  chmodSync(join(bin, 'agent-hooks'), 0o755);
}

/** One recorded call: the event as named by the agent, and the payload. */
export interface RecordedPayload {
  readonly event: string;
  readonly payload: unknown;
}

/** `text` as JSON, or as the text it is when it is not JSON (an agent that sent nothing is recorded as `""`). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The payloads recorded in `project`, in the order they came, from the shim or any other recorder writing `evidence/raw/`. */
export function recordedPayloads(project: AgentProject): RecordedPayload[] {
  const dir = join(project.evidence, 'raw');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort((a, b) => Number(a.split('-')[0]) - Number(b.split('-')[0]))
    .map((file) => ({ event: file.split('-').slice(2).join('-').replace(/\.json$/, ''), payload: parsed(readFileSync(join(dir, file), 'utf8')) }));
}

/**
 * `payload` with what changes from run to run replaced by placeholders, every key kept: the project's temporary root
 * (`<ROOT>`), UUIDs, ISO timestamps, epoch milliseconds, and the ids agents make up (`<ID>`).
 */
export function scrub(payload: unknown, project: AgentProject): unknown {
  const root = realpathSync(project.root);
  const text = (value: string): string =>
    value
      .replaceAll(root, '<ROOT>')
      .replaceAll(encodeURI(root), '<ROOT>')
      .replaceAll(root.replace(/[^A-Za-z0-9]/g, '-'), '<ROOT-SLUG>')
      .replaceAll(root.replaceAll('/', '-'), '<ROOT-SLUG>')
      .replaceAll(root.slice(1), '<ROOT>')
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<UUID>')
      .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z\b/g, '<TIMESTAMP>')
      .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-[0-9a-f]{8}\b/g, '<TIMESTAMP>-<ID>')
      .replace(/\b(toolu|call|conv|agent|msg|ses|prt|chatcmpl|fc|resp)_[A-Za-z0-9_]+\b/g, '$1_<ID>')
      .replace(/\b1[7-9]\d{8,11}(_[a-z0-9]+)?\b/g, '<ID>');
  const walk = (value: unknown, key: string): unknown => {
    if (typeof value === 'string') return text(value);
    if (typeof value === 'number' && /time|ms|duration|elapsed|timestamp|started|ended|usage|tokens|pid/i.test(key)) return '<NUMBER>';
    if (Array.isArray(value)) return value.map((v) => walk(v, key));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return walk(payload, '');
}

/** Writes each event's first payload to `dir/<event>.json` (a later payload of the same event as `<event>.2.json`, …). */
export function writeFixtures(dir: string, project: AgentProject, payloads: readonly RecordedPayload[]): string[] {
  mkdirSync(dir, { recursive: true });
  const seen = new Map<string, number>();
  const written: string[] = [];
  for (const { event, payload } of payloads) {
    const n = (seen.get(event) ?? 0) + 1;
    seen.set(event, n);
    const file = join(dir, `${event}${n === 1 ? '' : `.${n}`}.json`);
    writeFileSync(file, `${JSON.stringify(scrub(payload, project), null, 2)}\n`);
    written.push(file);
  }
  return written;
}
