import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { lightProfileOf } from '../src/agents/light-registry.js';
import { AGENT_IDS, AGENT_PROFILES, agentProfile, isAgentId } from '../src/agents/registry.js';
import { agentWire } from '../src/agents/wire-registry.js';
import { configKindOf, HOOK_SOURCES, projectConfigFiles } from '../src/agents/load-all.js';
import { BRIDGE_AGENTS } from '../src/bridge/bridge-answer.js';
import { readBridgePayload } from '../src/bridge/bridge-payload.js';
import { INSTALL_AGENTS } from '../src/bridge/install-targets.js';
import { learnEvent } from '../src/bridge/first-stage-lessons.js';
import { payloadCallOf, writtenEventOf } from '../src/bridge/payload-call.js';
import { ALONE_EVENTS } from '../src/bridge/alone-events.js';
import { toolCallStdin } from '../src/bridge/first-stage-run.js';
import { hookMdDialect } from '../src/dialects/hookmd.js';
import { pythonJsonDumps } from '../src/dialects/internal/python-json.js';
import { HookEvent } from '../src/core/events.js';
import agentsJson from './agents/agents.json' with { type: 'json' };

// Every agent is one room and one line in each registry: a room that forgets a part, or a light reader that drifts
// from its full reader, fails here rather than in a user's bridged call.

// The bridge's recorded payloads, and those the end-to-end suite recorded from each agent's CLI (by version).
const FIXTURES = [join(import.meta.dirname, 'bridge', 'fixtures'), join(import.meta.dirname, 'agents', 'fixtures')];

/** The recorded payloads of `dir` (one folder deep), each with the event its file name starts with. */
function recorded(dir: string): { file: string; event: string; payload: unknown }[] {
  const out: { file: string; event: string; payload: unknown }[] = [];
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) {
      out.push(...recorded(file));
      continue;
    }
    if (!name.endsWith('.json') || name === 'tools.json') continue;
    out.push({ file, event: basename(name, '.json').split('-')[0]!, payload: JSON.parse(readFileSync(file, 'utf8')) });
  }
  return out;
}

describe('the agent registry', () => {
  it('lists each agent once, under its own id, with a light profile of the same id', () => {
    expect(new Set(AGENT_IDS).size).toBe(AGENT_IDS.length);
    for (const profile of AGENT_PROFILES) {
      expect(isAgentId(profile.id)).toBe(true);
      expect(agentProfile(profile.id)).toBe(profile);
      expect(profile.light.id).toBe(profile.id);
      expect(lightProfileOf(profile.id), profile.id).toBe(profile.light);
      expect(profile.title.trim(), profile.id).not.toBe('');
      expect(profile.install.title, profile.id).toBe(profile.title);
    }
    expect(lightProfileOf('hookmd')).toBeUndefined();
    expect(lightProfileOf('constructor')).toBeUndefined();
    expect(isAgentId('__proto__')).toBe(false);
  });

  it("gives each agent's bridged call the wire of its own profile", () => {
    for (const profile of AGENT_PROFILES) {
      const wire = agentWire(profile.id);
      for (const part of ['dialect', 'eventOf', 'readPayload', 'answer', 'userMessageField'] as const) expect(wire[part], `${profile.id}.${part}`).toBe(profile[part]);
    }
  });

  it('names every event a profile lists, and reads each name back as that event', () => {
    for (const profile of AGENT_PROFILES) {
      const names = Object.entries(profile.install.names);
      expect(names.length, profile.id).toBeGreaterThan(0);
      for (const [event, name] of names) {
        expect(HookEvent.all, `${profile.id}: ${event}`).toContain(event);
        expect(typeof name === 'string' && name !== '', `${profile.id}: ${event} has no name`).toBe(true);
        // The name it is written under reads back as the event, as the payload reader reads it.
        expect(profile.eventOf(name!), `${profile.id}: ${name}`).toBe(event);
      }
      for (const [name, event] of Object.entries(profile.install.extraEvents ?? {})) {
        expect(HookEvent.all, `${profile.id}: ${name}`).toContain(event);
        expect(profile.eventOf(name), `${profile.id}: ${name}`).toBe(event);
      }
      expect(profile.eventOf('no-such-event'), profile.id).toBeUndefined();
      if (profile.install.projectVariable !== undefined) expect(profile.light.projectVariables, profile.id).toContain(profile.install.projectVariable);
    }
  });

  it('keeps the orders the agents were listed and loaded in before they had rooms', async () => {
    // At equal priority the hooks of the sources run in this order; `--from` and `--install` list the agents so.
    // Qwen Code and Factory Droid, added with rooms of their own, come after them as sources.
    expect(HOOK_SOURCES).toEqual(['hookmd', 'claude', 'copilot', 'vscode', 'gemini', 'cursor', 'codex', 'qwen', 'droid']);
    // Cline, the first agent added with a room of its own, has no config files: it comes after the sources; OpenCode
    // and Kilo, bridged by a plugin, last.
    expect(BRIDGE_AGENTS).toEqual(['claude', 'copilot', 'vscode', 'gemini', 'cursor', 'codex', 'qwen', 'droid', 'cline', 'opencode', 'kilo']);
    expect(INSTALL_AGENTS).toEqual(['claude', 'codex', 'gemini', 'copilot', 'vscode', 'cursor', 'cline', 'qwen', 'droid', 'opencode', 'kilo']);
    const dir = mkdtempSync(join(tmpdir(), 'agent-rooms-'));
    try {
      const files = ['.codex/hooks.json', '.cursor/hooks.json', '.gemini/settings.json', '.github/hooks/b.json', '.github/hooks/a.json', '.claude/settings.local.json', '.claude/settings.json'];
      for (const file of files) {
        mkdirSync(join(dir, file, '..'), { recursive: true });
        writeFileSync(join(dir, file), '{}');
      }
      const found = (await projectConfigFiles(dir)).map((file) => file.slice(dir.length + 1).split('\\').join('/'));
      expect(found).toEqual(['.claude/settings.json', '.claude/settings.local.json', '.github/hooks/a.json', '.github/hooks/b.json', '.gemini/settings.json', '.cursor/hooks.json', '.codex/hooks.json']);
      expect(found.map((file) => configKindOf(join(dir, file)))).toEqual(['claude', 'claude', 'github', 'github', 'gemini', 'cursor', 'codex']);
      expect(configKindOf(join(dir, 'hooks.json'))).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names each agent’s shell tool in the shared vocabulary', () => {
    for (const profile of AGENT_PROFILES) expect(profile.tools['Shell']?.length, profile.id).toBeGreaterThan(0);
  });

  const WITHOUT_A_ROOM: string[] = [];
  it('records, for each agent whose CLI the end-to-end suite drives, the version it pins', () => {
    const pinned = Object.entries(agentsJson).filter(([key]) => key !== '//') as [string, { package: string; version: string }][];
    for (const [id, pin] of pinned) {
      // An agent driven end to end but without a room yet is named here, so a new pin without a room fails.
      if (WITHOUT_A_ROOM.includes(id)) {
        expect(isAgentId(id), `${id} has a room now: take it out of WITHOUT_A_ROOM`).toBe(false);
        continue;
      }
      expect(isAgentId(id), id).toBe(true);
      expect(agentProfile(id as never).checkedAgainst, id).toEqual({ package: pin.package, version: pin.version });
    }
    for (const profile of AGENT_PROFILES) {
      if (profile.checkedAgainst !== undefined) expect(pinned.map(([id]) => id), profile.id).toContain(profile.id);
    }
  });

  it('has a light reader that comes to what the full reader does on every recorded payload', async () => {
    let compared = 0;
    for (const profile of AGENT_PROFILES) {
      // A plugin agent's recordings are its plugin hooks' inputs, which no bridge reads (test/agents-opencode-plugin.test.ts).
      if (profile.install.layout === 'plugin') continue;
      const dirs = FIXTURES.map((root) => join(root, profile.id)).filter((dir) => statSync(dir, { throwIfNoEntry: false }) !== undefined);
      for (const { file, event: fileEvent, payload } of dirs.flatMap(recorded)) {
        // An agent whose payloads name no event is given it on the command line, as its installed entry does.
        const given = profile.install.eventArgument ? fileEvent : undefined;
        let full: ReturnType<typeof readBridgePayload> | undefined;
        try {
          full = readBridgePayload(profile.id, payload, given);
        } catch {
          // The full reader refuses it: the light one must then hand the call over, never answer it alone.
        }
        const written = writtenEventOf(profile.id, payload, given);
        expect(written, file).toBeDefined();
        const event = await learnEvent(written!.rule, written!.written);
        const call = event === null ? undefined : payloadCallOf(written!, payload, event);
        compared++;
        if (full === undefined) {
          expect(call, file).toBeUndefined();
          continue;
        }
        expect(event, file).toBe(full.ctx.event);
        if (given === undefined) expect(profile.eventOf(written!.written), file).toBe(full.ctx.event);
        if (call !== undefined) {
          expect(call.event, file).toBe(full.ctx.event);
          expect(call.tool, file).toBe('toolCall' in full.ctx ? full.ctx.toolCall.name : undefined);
        }
      }
    }
    // Claude Code, Codex, Copilot and Gemini CLI have recorded payloads.
    expect(compared).toBeGreaterThanOrEqual(40);
  });

  it('gives a HOOK.md hook the first stage runs alone the stdin the full path gives it, on every recorded tool call, before and after', async () => {
    const now = new Date('2026-12-04T05:06:07.089Z');
    const agents = new Set<string>();
    for (const profile of AGENT_PROFILES) {
      if (profile.install.layout === 'plugin') continue;
      const dirs = FIXTURES.map((root) => join(root, profile.id)).filter((dir) => statSync(dir, { throwIfNoEntry: false }) !== undefined);
      for (const { file, event: fileEvent, payload } of dirs.flatMap(recorded)) {
        const given = profile.install.eventArgument ? fileEvent : undefined;
        const written = writtenEventOf(profile.id, payload, given);
        const event = written === undefined ? null : await learnEvent(written.rule, written.written);
        if (event === null || !ALONE_EVENTS.has(event)) continue;
        const call = payloadCallOf(written!, payload, event);
        if (call === undefined) continue;
        const { ctx } = readBridgePayload(profile.id, payload, given);
        vi.useFakeTimers({ now, toFake: ['Date'] });
        let full: string;
        try {
          full = pythonJsonDumps(hookMdDialect.payload(ctx, { eventName: hookMdDialect.eventName(ctx.event), workDir: '/work/dir', hookName: 'h' }));
        } finally {
          vi.useRealTimers();
        }
        expect(toolCallStdin(event, call.fields, hookMdDialect.eventName(ctx.event), '/work/dir', now), file).toBe(full);
        agents.add(`${profile.id} ${event}`);
      }
    }
    // Every agent with a recorded tool call: the four the end-to-end suite drives, and Cline, Droid and Qwen Code.
    for (const agent of ['claude', 'cline', 'codex', 'copilot', 'droid', 'gemini', 'qwen']) {
      for (const event of ['PreToolUse', 'PostToolUse']) expect([...agents], agent).toContain(`${agent} ${event}`);
    }
  });
});
