/**
 * OpenCode and Kilo through `agent-hooks/opencode`, the plugin `agent-hooks bridge --install opencode` (or `kilo`)
 * writes into the project's plugin folder: the project's HOOK.md hooks, unchanged, run inside the agent's own process
 * (neither has command hooks).
 *
 * What the plugin cannot do there, and this file names in place of the shared cases:
 * - a stop gate: `session.idle` is a bus event whose answer OpenCode never reads, so a Stop hook's block cannot keep
 *   the agent working (the plugin says so as a warning — when `run` has not exited first, which it does at once on
 *   `session.idle`);
 * - "the agent kills the bridge": there is no bridge process and OpenCode gives a plugin no timeout of its own; a
 *   hanging HOOK.md hook is ended at its own `timeout`, which the failures session proves.
 */
import { expect } from 'vitest';
import { kiloDriver, opencodeDriver } from './drivers/opencode.js';
import type { AgentDriver, SessionView } from './support/harness.js';
import { defineAgentSuite } from './support/suite.js';

const STOP_GATE = 'session.idle is a bus event whose answer OpenCode never reads: a Stop hook cannot keep it working';

function inPlugin(driver: AgentDriver): AgentDriver {
  return {
    ...driver,
    unsupported: {
      'stop gate: blocks once, the agent goes on with the reason, and the second payload says the gate is active': STOP_GATE,
      'at its own hook timeout: no hook process is left': 'no bridge process to kill: the plugin runs in the agent’s own process, and a hanging hook ends at its own timeout (the failures session)',
    },
    differs: {
      'the agent ran to its end': {
        title: `the agent ran to its end, the Stop hook ran once on session.idle, and its block was not obeyed (${driver.name} reads no answer to session.idle)`,
        check: (s: SessionView) => {
          expect(s.run.timedOut).toBe(false);
          // The model's last scripted answer was for the turn a stop gate would have added.
          expect(s.mock.remaining()).toBe(1);
          expect(s.project.evidenceOf('stop-gate').length).toBe(1);
        },
      },
    },
  };
}

defineAgentSuite(inPlugin(opencodeDriver));
defineAgentSuite(inPlugin(kiloDriver));
