/**
 * `agent-hooks serve` for an end-to-end project: started with the project's own `agent-hooks` (as a user would, in
 * the project, with its HOME), on a free loopback port, its JSON log lines kept.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { AgentProject } from './harness.js';

/** A running server. */
export interface ServeProcess {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  /** The token the server asks for (what Claude Code must have as `AGENT_HOOKS_TOKEN`). */
  readonly token: string;
  /** Every log line so far, parsed. */
  readonly lines: readonly Record<string, unknown>[];
  /** SIGTERM, and the exit code once it is gone. */
  stop(): Promise<number | null>;
}

/** Starts `agent-hooks serve --port 0` in `project` and waits until it listens. */
export async function startServe(project: AgentProject, args: readonly string[] = []): Promise<ServeProcess> {
  const token = project.cli('serve', '--print-token').trim();
  const child = spawn(join(project.dir, 'node_modules', '.bin', 'agent-hooks'), ['serve', '--port', '0', ...args], { cwd: project.dir, env: project.env, stdio: ['ignore', 'ignore', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  let buffer = '';
  const listening = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        try {
          const record = JSON.parse(line) as Record<string, unknown>;
          lines.push(record);
          if (record.msg === 'listening') resolve(record);
        } catch {
          lines.push({ text: line });
        }
      }
    });
    void closed.then((code) => reject(new Error(`agent-hooks serve exited ${code} before listening: ${JSON.stringify(lines)}`)));
    setTimeout(() => reject(new Error(`agent-hooks serve did not listen within 30 s: ${JSON.stringify(lines)}`)), 30_000).unref();
  });
  const ready = await listening;
  const url = ready.url as string;
  return {
    url,
    port: Number(new URL(url).port),
    token,
    lines,
    stop: () => {
      child.kill('SIGTERM');
      return closed;
    },
  };
}
