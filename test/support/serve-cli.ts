/**
 * A running `agent-hooks serve` of the built CLI, for the tests that talk to it: started with `--port 0`, its port read
 * from the `listening` line of its log; and a hook's command line run as an agent runs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, type CliResult } from './cli.js';

/** The server: its port, its log so far, its process, and how to stop it (and wait until it has). */
export interface ServeCli {
  readonly port: number;
  readonly log: () => string;
  readonly child: ChildProcess;
  readonly stop: () => Promise<void>;
}

/** Starts `agent-hooks serve --port 0 …args` in `cwd` with `env`; rejects when it ends before it listens. */
export async function startServeCli(cwd: string, env: NodeJS.ProcessEnv, args: readonly string[] = []): Promise<ServeCli> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    await closed;
  };
  let log = '';
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        log += chunk;
        const line = log.split('\n').find((l) => l.includes('"listening"'));
        if (line !== undefined) resolve(Number(new URL((JSON.parse(line) as { url: string }).url).port));
      });
      child.on('close', () => reject(new Error(`serve ended before listening:\n${log}`)));
    });
    return { port, log: () => log, child, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `sh -c line` in `dir` with `env`, `input` on its stdin, as an agent runs a hook's command line: what it printed and its exit code. */
export function runHookLine(line: string, dir: string, input: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', line], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin!.end(input);
  });
}
