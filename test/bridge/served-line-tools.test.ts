/**
 * What the served line is written with: bash (by `env -i`) where that bash opens TCP connections itself and the server
 * is on a loopback IP, else curl; and what `--install --http` says when it has neither.
 */
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstallBridgeError } from '../../src/bridge/install-bridge-error.js';
import { bashOpensTcp, executableOnPath, servedBridgeLine, servedLineTools } from '../../src/bridge/served-bridge-line.js';

let root: string;
let bash: string;
let envTool: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'agent-hooks-served-tools-'));
  bash = (await executableOnPath('bash'))!;
  envTool = (await executableOnPath('env'))!;
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A folder holding links to the named programs of this machine, and scripts of the given texts. */
async function binOf(name: string, tools: readonly string[], scripts: Record<string, string> = {}): Promise<string> {
  const bin = join(root, name);
  await rm(bin, { recursive: true, force: true });
  await mkdir(bin);
  for (const tool of tools) await symlink((await executableOnPath(tool))!, join(bin, tool));
  for (const [tool, text] of Object.entries(scripts)) {
    await writeFile(join(bin, tool), text);
    await chmod(join(bin, tool), 0o755);
  }
  return bin;
}

const options = { agent: 'codex' as const, fallback: 'agent-hooks bridge --from codex', cat: '/usr/bin/cat', maxSeconds: 30 };

describe('bashOpensTcp', () => {
  it("is true of this machine's bash, and false of a program that exits 0 without connecting or one that fails", async () => {
    expect(await bashOpensTcp(bash, envTool)).toBe(true);
    const bin = await binOf('fakes', [], { quiet: '#!/bin/sh\nexit 0\n', failing: '#!/bin/sh\nexit 1\n' });
    expect(await bashOpensTcp(join(bin, 'quiet'), envTool)).toBe(false);
    expect(await bashOpensTcp(join(bin, 'failing'), envTool)).toBe(false);
    expect(await bashOpensTcp(join(bin, 'missing'), envTool)).toBe(false);
  });
});

describe('servedLineTools', () => {
  it('finds cat, curl, and bash with env, by their real paths', async () => {
    const tools = await servedLineTools({ PATH: await binOf('all', ['cat', 'curl', 'bash', 'env']) });
    expect(tools).toEqual({ cat: await executableOnPath('cat'), curl: await executableOnPath('curl'), bash: { bash, env: envTool } });
  });

  it('leaves bash out when it does not open /dev/tcp, or env is missing; curl out when it is missing', async () => {
    const noTcp = await binOf('no-tcp', ['cat', 'curl', 'env'], { bash: '#!/bin/sh\nexit 0\n' });
    expect((await servedLineTools({ PATH: noTcp })).bash).toBeUndefined();
    expect((await servedLineTools({ PATH: await binOf('no-env', ['cat', 'curl', 'bash']) })).bash).toBeUndefined();
    const noCurl = await servedLineTools({ PATH: await binOf('no-curl', ['cat', 'bash', 'env']) });
    expect(noCurl).toEqual({ cat: await executableOnPath('cat'), curl: undefined, bash: { bash, env: envTool } });
  });

  it('refuses, naming what is missing, without cat, or without both curl and a bash that opens /dev/tcp', async () => {
    await expect(servedLineTools({ PATH: await binOf('only-curl', ['curl', 'bash', 'env']) })).rejects.toThrow(/needs cat on PATH/);
    const error = await servedLineTools({ PATH: await binOf('only-cat', ['cat']) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InstallBridgeError);
    expect((error as Error).message).toMatch(/needs curl \(or a bash that opens \/dev\/tcp\) on PATH.*Nothing was changed/);
  });
});

describe('servedBridgeLine', () => {
  const withBash = { ...options, curl: '/usr/bin/curl', bash: { bash: '/usr/bin/bash', env: '/usr/bin/env' } };

  it('posts through bash to a loopback IP (IPv4 or IPv6), by env -i, with the address, port, path and Host apart', () => {
    const v4 = servedBridgeLine({ ...withBash, url: 'http://127.0.0.1:7391/bridge/codex' });
    expect(v4).toContain("|/usr/bin/env -i /usr/bin/bash -c '");
    expect(v4).toContain(' agent-hooks-post 127.0.0.1 7391 /bridge/codex 127.0.0.1:7391 "$PWD" 30 2>/dev/null;');
    expect(v4).not.toContain('curl');
    const v6 = servedBridgeLine({ ...withBash, url: 'http://[::1]:7391/bridge/copilot/preToolUse' });
    expect(v6).toContain(" agent-hooks-post ::1 7391 /bridge/copilot/preToolUse '[::1]:7391' ");
  });

  it('posts with curl to a name (no name is looked up by bash) or an address not on loopback, and needs curl for it', () => {
    for (const url of ['http://localhost:7391/bridge/codex', 'http://10.0.0.5:7391/bridge/codex']) {
      const line = servedBridgeLine({ ...withBash, url });
      expect(line).toContain(`/usr/bin/curl -q -sf --noproxy '*' --proto =http --connect-timeout 2 -m 30 `);
      expect(line).not.toContain('/dev/tcp');
      expect(() => servedBridgeLine({ ...withBash, curl: undefined, url })).toThrow(InstallBridgeError);
    }
  });

  it('waits at least a second for the answer, in whole seconds', () => {
    expect(servedBridgeLine({ ...withBash, maxSeconds: 0.5, url: 'http://127.0.0.1:1/bridge/codex' })).toContain('"$PWD" 1 2>/dev/null;');
    expect(servedBridgeLine({ ...withBash, maxSeconds: 7.5, url: 'http://localhost:1/bridge/codex' })).toContain(' -m 7 ');
  });
});
