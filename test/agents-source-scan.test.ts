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
  'dialects/claude-blocking-feedback.ts': "Claude's dialect keeps a PostToolUse block apart only for a context that came from Claude Code itself",
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

/**
 * The agents whose wire protocols were dialects (`src/dialects/<id>.ts`) before there were rooms: HOOK.md's
 * `metadata.dialect`, the event alias table and the config matcher rules name them in the layers below the rooms. No
 * agent is added here: a new one speaks through its room.
 */
const NAMED_BY_A_DIALECT: ReadonlySet<string> = new Set(['claude', 'codex', 'gemini', 'copilot', 'vscode', 'cursor']);

/**
 * The registries: one line per room each, and the documented option of each agent. No file is allowed beyond them: the
 * help and the messages that list agents read their profiles.
 */
const REGISTRIES: ReadonlySet<string> = new Set([
  'agents/registry.ts',
  'agents/light-registry.ts',
  'agents/tool-registry.ts',
  'agents/wire-registry.ts',
  // The public options of `withHooksFrom` and `loadAllHookConfigs` document each agent's option for the API reference.
  'agents/load-all.ts',
]);

/** An agent whose room is another's: Kilo is OpenCode's engine, with only its plugin folder of its own. */
const ROOM_OF: Readonly<Record<string, string>> = { kilo: 'opencode' };

describe('adding an agent', () => {
  const others = AGENT_IDS.filter((id) => !NAMED_BY_A_DIALECT.has(id));

  it('touches its room and the registries only: its id appears nowhere else in src/', () => {
    expect(others.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const file of sources(SRC)) {
      const path = relative(SRC, file).split('\\').join('/');
      const text = readFileSync(file, 'utf8');
      for (const id of others) {
        if (path.startsWith(`agents/${ROOM_OF[id] ?? id}/`) || REGISTRIES.has(path)) continue;
        // Case-insensitive: a comment that says "Cline" ties the file to the agent as much as code does.
        for (const match of text.matchAll(new RegExp(`\\b${id}\\b`, 'gi'))) {
          const line = text.slice(0, match.index).split('\n').length;
          found.push(`src/${path}:${line}: ${match[0]}`);
        }
      }
    }
    expect(found, 'move what names the agent into its room (src/agents/<id>/) and read it from its profile').toEqual([]);
  });

  it('lists in NAMED_BY_A_DIALECT only agents that have a dialect file', () => {
    for (const id of NAMED_BY_A_DIALECT) expect(readdirSync(join(SRC, 'dialects')), id).toContain(`${id}.ts`);
  });
});
