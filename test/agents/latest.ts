/**
 * `npm run test:agents -- --latest [vitest arguments]`: the end-to-end suite against each agent's newest release,
 * beside its pin, and what differs.
 *
 * 1. Asks the npm registry for each agent's newest version (`npm view <package> version`); stops, non-zero, when it
 *    cannot be reached: a report of nothing is never a pass.
 * 2. For each agent whose newest differs from its pin: runs the suite's files for that agent on the pin, then on the
 *    newest (`AGENT_HOOKS_AGENTS=latest`: its own cache folder, keyed by the versions; the pinned one is untouched),
 *    and records the newest's payloads into `fixtures/<agent>/<newest>/`.
 * 3. Reports, per agent: the pinned and newest versions, the cases that pass on one and fail on the other, and the
 *    payload fields that changed (see support/fixture-diff.ts); as a table, and as JSON in `latest-report.json`.
 *
 * Positional arguments select test files as vitest does (`codex` runs codex.test.ts), and so the agents; the other
 * arguments go to both vitest runs. Exits 1 when a case passes on the pin and fails on the newest, or a step failed.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { ensureCliBuilt } from '../support/build.js';
import { fixtureChanges, unacknowledged } from './support/fixture-diff.js';

const HERE = import.meta.dirname;
const REPO = join(HERE, '..', '..');
const FIXTURES = join(HERE, 'fixtures');
/** Where the JSON report goes: `latest-report.json` here, or `AGENT_HOOKS_LATEST_REPORT` (the script's own tests). */
const REPORT = process.env.AGENT_HOOKS_LATEST_REPORT ?? join(HERE, 'latest-report.json');

interface Pin {
  readonly package: string;
  readonly version: string;
  readonly bin: string;
}
const PINS = Object.fromEntries(Object.entries(JSON.parse(readFileSync(join(HERE, 'agents.json'), 'utf8')) as Record<string, Pin>).filter(([name]) => !name.startsWith('/')));
const AGENTS = Object.keys(PINS);

/** One agent's lines of the report. */
interface AgentReport {
  agent: string;
  package: string;
  pinned: string;
  newest: string;
  /** Cases that pass on the pin and fail on the newest. */
  regressed: string[];
  /** Cases that fail on the pin and pass on the newest. */
  fixed: string[];
  /** Cases run on one version only, or skipped on one and run on the other. */
  other: string[];
  /** How many of the agent's cases passed, failed or were skipped on each version: a run that broke shows here. */
  counts: { pinned: Record<string, number>; newest: Record<string, number> };
  /** The payload fields that changed from the pin's fixtures to the newest's, one line each. */
  payloadChanges: string[];
  /** Those of `payloadChanges` that `fixtures/<agent>/<newest>/CHANGES.md` does not acknowledge. */
  unacknowledged: string[];
  /** What went wrong in a step, or why nothing was run. */
  notes: string[];
}

const args = process.argv.slice(2);
const filters = args.filter((a) => !a.startsWith('-'));
const options = args.filter((a) => a.startsWith('-'));

// 1. The newest releases, asked all at once.
const run = promisify(execFile);
const answers = await Promise.all(
  AGENTS.map(async (agent) => {
    const pkg = PINS[agent]!.package;
    try {
      return { agent, pkg, version: (await run('npm', ['view', pkg, 'version'], { encoding: 'utf8', timeout: 60_000 })).stdout.trim() };
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      return { agent, pkg, version: '', error: (e.stderr ?? '').trim() || e.message };
    }
  }),
);
const newest: Record<string, string> = {};
for (const answer of answers) {
  if ('error' in answer) {
    process.stderr.write(`Cannot ask the npm registry for the newest ${answer.pkg} (\`npm view ${answer.pkg} version\`): ${answer.error}\nNothing was run. Check the network and the npm registry setting (npm config get registry), then run again.\n`);
    process.exit(2);
  }
  if (!/^\d+\.\d+\.\d+/.test(answer.version)) {
    process.stderr.write(`The npm registry answered "${answer.version}" for the newest ${answer.pkg}, which is no version. Nothing was run.\n`);
    process.exit(2);
  }
  newest[answer.agent] = answer.version;
}

// 2. Which test files and agents: a file's agents are the drivers it imports and the pins it names.
const files = readdirSync(HERE)
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => filters.length === 0 || filters.some((filter) => join('test', 'agents', f).includes(filter)));
const agentsOf = (file: string): string[] => {
  const text = readFileSync(join(HERE, file), 'utf8');
  const named = [...text.matchAll(/drivers\/(\w+)\.js|pinOf\('(\w+)'\)/g)].map((m) => m[1] ?? m[2]!);
  const prefix = AGENTS.filter((a) => file.startsWith(`${a}.`) || file.startsWith(`${a}-`));
  return [...new Set([...named, ...prefix])].filter((a) => a in PINS);
};
const selected = filters.length === 0 ? AGENTS : [...new Set(files.flatMap(agentsOf))];
const newer = selected.filter((a) => newest[a] !== PINS[a]!.version);
const toRun = files.filter((f) => agentsOf(f).some((a) => newer.includes(a)));
// The latest run installs the newest of every agent those files drive (the newest of some is their pin), and only
// those: an agent without cases of its own (recorded only) cannot break the others' install.
const latestVersions = Object.fromEntries([...new Set(toRun.flatMap(agentsOf))].map((a) => [a, newest[a]!]));

const reports: AgentReport[] = selected.map((agent) => ({
  agent,
  package: PINS[agent]!.package,
  pinned: PINS[agent]!.version,
  newest: newest[agent]!,
  regressed: [],
  fixed: [],
  other: [],
  counts: { pinned: {}, newest: {} },
  payloadChanges: [],
  unacknowledged: [],
  notes: newer.includes(agent) ? [] : ['newest is the pin: nothing to run'],
}));
const reportOf = (agent: string) => reports.find((r) => r.agent === agent);
let failed = false;

/** A case's outcome by its file and title, with the agent versions in the title made `<version>`. */
type Outcomes = Map<string, { agent: string | undefined; status: string }>;

function suiteRun(label: string, env: NodeJS.ProcessEnv): Outcomes | undefined {
  const out = mkdtempSync(join(tmpdir(), 'agent-hooks-latest-'));
  const json = join(out, 'results.json');
  process.stderr.write(`\n=== The suite on the ${label} versions: ${toRun.join(', ')}\n`);
  const install = spawnSync(process.execPath, [join(HERE, 'install-agents.mjs')], { cwd: REPO, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (install.status !== 0) {
    for (const a of newer) reportOf(a)?.notes.push(`installing the ${label} versions failed (exit ${install.status})`);
    failed = true;
    return undefined;
  }
  spawnSync(join(REPO, 'node_modules', '.bin', 'vitest'), ['run', '--config', 'vitest.agents.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`, ...options, ...toRun.map((f) => join('test', 'agents', f))], {
    cwd: REPO,
    env,
    stdio: 'inherit',
  });
  if (!existsSync(json)) {
    for (const a of newer) reportOf(a)?.notes.push(`the suite on the ${label} versions gave no results`);
    failed = true;
    return undefined;
  }
  const results = JSON.parse(readFileSync(json, 'utf8')) as { testResults: { name: string; assertionResults: { ancestorTitles: string[]; title: string; status: string }[] }[] };
  rmSync(out, { recursive: true, force: true });
  const versions = [...new Set([...Object.values(PINS).map((p) => p.version), ...Object.values(newest)])].sort((a, b) => b.length - a.length);
  const outcomes: Outcomes = new Map();
  for (const file of results.testResults) {
    const fileAgents = agentsOf(basename(file.name));
    for (const test of file.assertionResults) {
      let title = [...test.ancestorTitles, test.title].join(' › ');
      for (const v of versions) title = title.replaceAll(v, '<version>');
      // The case's agent: the first word of its outer describe (`codex 0.171.0 (…)`), else its file's only agent.
      const first = (test.ancestorTitles[0] ?? '').split(/\s/)[0]!.toLowerCase();
      const agent = AGENTS.includes(first) ? first : fileAgents.length === 1 ? fileAgents[0] : undefined;
      outcomes.set(`${basename(file.name)} › ${title}`, { agent, status: test.status });
    }
  }
  return outcomes;
}

// The bridge the agents call is the built CLI (dist/cli.cjs): built now when missing or older than the sources.
if (newer.length > 0) await ensureCliBuilt();

if (toRun.length > 0) {
  const pinnedEnv = { ...process.env };
  delete pinnedEnv.AGENT_HOOKS_AGENTS;
  delete pinnedEnv.AGENT_HOOKS_AGENTS_VERSIONS;
  const latestEnv = { ...pinnedEnv, AGENT_HOOKS_AGENTS: 'latest', AGENT_HOOKS_AGENTS_VERSIONS: JSON.stringify(latestVersions) };
  const onPin = suiteRun('pinned', pinnedEnv);
  const onNewest = suiteRun('newest', latestEnv);
  if (onPin !== undefined && onNewest !== undefined) {
    for (const key of [...new Set([...onPin.keys(), ...onNewest.keys()])].sort()) {
      const a = onPin.get(key);
      const b = onNewest.get(key);
      const report = reportOf(a?.agent ?? b?.agent ?? '');
      if (report === undefined || !newer.includes(report.agent)) continue;
      if (a !== undefined) report.counts.pinned[a.status] = (report.counts.pinned[a.status] ?? 0) + 1;
      if (b !== undefined) report.counts.newest[b.status] = (report.counts.newest[b.status] ?? 0) + 1;
      if (a?.status === 'passed' && b?.status === 'failed') report.regressed.push(key);
      else if (a?.status === 'failed' && b?.status === 'passed') report.fixed.push(key);
      else if (a?.status !== b?.status) report.other.push(`${key}: ${a?.status ?? 'absent'} on the pin, ${b?.status ?? 'absent'} on the newest`);
    }
  }
}

// 3. The newest's payloads, and how they differ from the pin's: one agent at a time, each in a folder of its own, so
// that one newest release that does not install (or record) leaves the others' report whole.
for (const agent of newer) {
  const report = reportOf(agent)!;
  process.stderr.write(`\n=== Recording the payloads of ${agent} ${report.newest}\n`);
  const env = { ...process.env, AGENT_HOOKS_AGENTS: 'latest', AGENT_HOOKS_AGENTS_VERSIONS: JSON.stringify({ [agent]: report.newest }) };
  const install = spawnSync(process.execPath, [join(HERE, 'install-agents.mjs')], { cwd: REPO, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (install.status !== 0) {
    report.notes.push(`installing ${report.package}@${report.newest} failed (exit ${install.status}): see the npm output above`);
    failed = true;
    continue;
  }
  const record = spawnSync(process.execPath, ['--import', 'tsx', join(HERE, 'record-payloads.ts'), agent], { cwd: REPO, env, stdio: 'inherit' });
  if (record.status !== 0) {
    report.notes.push(`recording the payloads of ${report.newest} failed (exit ${record.status})`);
    failed = true;
  }
  const older = join(FIXTURES, agent, report.pinned);
  const current = join(FIXTURES, agent, report.newest);
  if (!existsSync(older)) report.notes.push(`no fixtures of the pin ${report.pinned} to compare with`);
  if (!existsSync(current)) report.notes.push(`no fixtures of ${report.newest} were recorded`);
  if (!existsSync(older) || !existsSync(current)) continue;
  report.payloadChanges = fixtureChanges(older, current);
  report.unacknowledged = unacknowledged(report.payloadChanges, current);
}

// The report.
const date = new Date().toISOString();
writeFileSync(REPORT, `${JSON.stringify({ date, args, agents: reports }, null, 2)}\n`);
const tally = (c: Record<string, number>) => (Object.keys(c).length === 0 ? '-' : Object.entries(c).map(([status, n]) => `${n} ${status}`).join(', '));
const rows = reports.map((r) => [r.agent, r.pinned, r.newest, tally(r.counts.pinned), tally(r.counts.newest), String(r.regressed.length), String(r.fixed.length), String(r.payloadChanges.length), String(r.unacknowledged.length), r.notes.join('; ')]);
const head = ['agent', 'pinned', 'newest', 'cases on the pin', 'cases on the newest', 'pass→fail', 'fail→pass', 'payload changes', 'not in CHANGES.md', 'notes'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
const lines = [`Agents' newest releases against their pins, ${date}`, '', line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
for (const r of reports) {
  const details = [
    ...r.regressed.map((c) => `  pass on ${r.pinned}, FAIL on ${r.newest}: ${c}`),
    ...r.fixed.map((c) => `  fail on ${r.pinned}, pass on ${r.newest}: ${c}`),
    ...r.other.map((c) => `  ${c}`),
    ...r.payloadChanges.map((c) => `  payload ${c}${r.unacknowledged.includes(c) ? '   (not in CHANGES.md)' : ''}`),
  ];
  if (details.length > 0) lines.push('', `${r.agent} ${r.pinned} → ${r.newest}:`, ...details);
}
lines.push('', `Written to ${REPORT}.`);
process.stdout.write(`${lines.join('\n')}\n`);
if (failed || reports.some((r) => r.regressed.length > 0)) process.exit(1);
