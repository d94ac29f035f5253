/**
 * The docs' lists of agents, held to the registry: a room added or a hook file moved shows up here before a reader
 * follows an old line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_PROFILES } from '../../src/agents/registry.js';

const docs = (file: string): string => readFileSync(join(import.meta.dirname, '..', '..', 'docs', file), 'utf8');

describe('the docs’ agent lists', () => {
  it('give bridge --install for every agent, in the registry’s order, with the file each writes', () => {
    const lines = [...docs('bridge.md').matchAll(/^npx agent-hooks bridge --install (\S+)\s+# (\S+)$/gm)].map((m) => [m[1], m[2]]);
    expect(lines).toEqual(AGENT_PROFILES.map((profile) => [profile.id, profile.install.file]));
  });

  it('name every agent in the table of config files', () => {
    const text = docs('other-agents.md');
    const start = text.indexOf('| agent | files (user, then project) |');
    const table = text.slice(start, text.indexOf('\n\n', start)).split('\n').slice(2);
    for (const profile of AGENT_PROFILES) {
      const first = profile.title.split(' ')[0]!;
      expect(table.some((row) => row.startsWith(`| ${first}`) || row.startsWith(`| ${profile.title}`)), profile.title).toBe(true);
    }
  });
});
