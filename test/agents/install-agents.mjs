#!/usr/bin/env node
// Installs the pinned agent CLIs of agents.json into a cache folder, once: outside the package's own dependencies, so
// that `npm ci` of the library never pulls a gigabyte of agents. Prints the folder. The folder's name holds a hash
// of the pins, so a new pin installs afresh and an old folder is never half-updated.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pins = JSON.parse(readFileSync(join(here, 'agents.json'), 'utf8'));
const agents = selected(Object.entries(pins).filter(([name]) => !name.startsWith('/')));
const specs = agents.map(([, pin]) => `${pin.package}@${pin.version}`).sort();
const hash = createHash('sha256').update(specs.join('\n')).digest('hex').slice(0, 12);
const root = process.env.AGENT_HOOKS_AGENTS_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'agent-hooks', 'agents');
const dir = join(root, hash);

/**
 * The agents to install: the pins; or, under `AGENT_HOOKS_AGENTS=latest` (set by `npm run test:agents -- --latest`),
 * the agents and versions of `AGENT_HOOKS_AGENTS_VERSIONS` (`{"codex":"0.171.0",…}`), which hash to a folder of
 * their own, so the pinned install is never touched.
 */
function selected(pinned) {
  if (process.env.AGENT_HOOKS_AGENTS === undefined || process.env.AGENT_HOOKS_AGENTS === 'pinned') return pinned;
  if (process.env.AGENT_HOOKS_AGENTS !== 'latest') throw new Error(`AGENT_HOOKS_AGENTS is "${process.env.AGENT_HOOKS_AGENTS}": it is "pinned" (the default) or "latest".`);
  const versions = JSON.parse(process.env.AGENT_HOOKS_AGENTS_VERSIONS ?? 'null');
  if (versions === null) throw new Error('AGENT_HOOKS_AGENTS=latest needs AGENT_HOOKS_AGENTS_VERSIONS ({"agent":"version",…}): run `npm run test:agents -- --latest`, which sets both.');
  return pinned.filter(([name]) => name in versions).map(([name, pin]) => [name, { ...pin, version: versions[name] }]);
}

export function agentsDir() {
  return dir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(join(dir, 'installed.json'))) {
    const temporary = `${dir}.${process.pid}.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    mkdirSync(temporary, { recursive: true });
    writeFileSync(join(temporary, 'package.json'), `${JSON.stringify({ name: 'agent-hooks-e2e-agents', private: true }, null, 2)}\n`);
    process.stderr.write(`Installing ${specs.join(', ')} into ${dir}\n`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', ...specs], { cwd: temporary, stdio: ['ignore', 'inherit', 'inherit'] });
    writeFileSync(join(temporary, 'installed.json'), `${JSON.stringify(specs, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    renameSync(temporary, dir);
  }
  process.stdout.write(`${dir}\n`);
}
