/**
 * `npm run test:node -- <version>` runs the suites under another Node: the tests, and every `node` they start by
 * name (`#!/usr/bin/env node` scripts, npx), must be that Node, not the machine's own.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const wanted = process.env.AGENT_HOOKS_TEST_NODE;

describe.skipIf(wanted === undefined)(`the Node under test (${wanted ?? 'none asked for'})`, () => {
  it('runs the tests', () => {
    expect(process.version).toBe(`v${wanted}`);
  });

  it('is the node a test starts by name', () => {
    expect(execFileSync('node', ['--version'], { encoding: 'utf8' }).trim()).toBe(`v${wanted}`);
    expect(execFileSync('/usr/bin/env', ['node', '-p', 'process.version'], { encoding: 'utf8' }).trim()).toBe(`v${wanted}`);
  });
});
