import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_IDS } from '../src/agents/registry.js';

// What the project knows of an agent lives in its room, src/agents/<id>/: code elsewhere reads the registry and never
// decides by an agent's name. A new `case 'gemini':` or `agent === 'cursor'` outside the rooms fails here.

const SRC = join(import.meta.dirname, '..', 'src');

/**
 * The files allowed to compare a value with an agent id, and why. Each is below `src/agents/` in the layers (the rooms
 * import them), or speaks one agent's own protocol by name.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  // The wire dialects: each is one agent's command-hook protocol, which script/ (HOOK.md `metadata.dialect`) and
  // config/ load by name, below the rooms.
  'dialects/gemini.ts': "Gemini CLI's dialect reads a context that came from Gemini CLI itself",
  // A matcher rule is named after the agent whose syntax it is; config/ sits below the rooms, which pass the rule.
  'config/config-matcher.ts': "compares a matcher rule (Claude Code's, Codex's), not an agent",
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const ids = AGENT_IDS.join('|');
// `case 'id':`, `x === 'id'`, `'id' !== x`: a decision taken by an agent's name.
const DECISION = new RegExp(`case\\s+'(${ids})'\\s*:|[!=]==\\s*'(${ids})'|'(${ids})'\\s*[!=]==`, 'g');

describe('the agent rooms', () => {
  it('are the only source files that decide by an agent’s name', () => {
    const found: string[] = [];
    for (const file of sources(SRC)) {
      const path = relative(SRC, file).split('\\').join('/');
      if (path.startsWith('agents/') || Object.hasOwn(ALLOWED, path)) continue;
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(DECISION)) {
        const line = text.slice(0, match.index).split('\n').length;
        found.push(`src/${path}:${line}: ${match[0]}`);
      }
    }
    expect(found, 'move the agent-specific part into its room (src/agents/<id>/) and read it from the registry').toEqual([]);
  });

  it('allows only files that still exist and still need it', () => {
    for (const path of Object.keys(ALLOWED)) {
      const text = readFileSync(join(SRC, path), 'utf8');
      expect(text.match(DECISION), `src/${path} no longer decides by an agent's name: take it off the list`).not.toBeNull();
    }
  });
});
