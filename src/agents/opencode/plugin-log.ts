/**
 * Where the plugin's warnings go: OpenCode shows a plugin nothing of its own, so each warning is written twice — on
 * stderr, which `opencode run` passes through to the terminal, and into OpenCode's log (`client.app.log`, in
 * `~/.local/share/opencode/log/`), which holds it when the terminal belongs to OpenCode's interface.
 *
 * @module
 * @internal
 */
import type { OpenCodeClient } from './plugin-api.js';

/** Says `message` (one line, already starting with `agent-hooks:`) where the user of OpenCode can see it. */
export type PluginWarn = (message: string) => void;

/**
 * A {@link PluginWarn} writing to `stderr` and to the log of OpenCode's `client`. Writing never throws: a warning that
 * cannot be logged must not turn into a failure of the call it is about.
 *
 * @internal
 */
export function pluginWarn(client: OpenCodeClient | undefined, stderr: { write(text: string): unknown } = process.stderr): PluginWarn {
  return (message) => {
    try {
      stderr.write(`${message}\n`);
    } catch {
      // stderr closed: the log below still has it.
    }
    try {
      const logged = client?.app?.log?.({ body: { service: 'agent-hooks', level: 'warn', message } });
      if (logged instanceof Promise) logged.catch(() => {});
    } catch {
      // An older client without app.log: stderr had it.
    }
  };
}
