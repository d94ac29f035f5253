import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify, stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

/** What each example must print. Every file in examples/ needs an entry, so none goes untested. */
const expectations: Record<string, (stdout: string) => void> = {
  'agent-demo.ts': (out) => {
    expect(out).toMatch(/hook blockDestructive \(priority 100, [\d.]+ ms\) → block: Destructive command refused/);
    expect(out).toContain('write_file: wrote 8 bytes to sandbox/notes.md');
    // HOOK.md hooks from examples/project, in one stack with the callbacks.
    expect(out).toMatch(/after loading HOOK\.md: block-pipe-to-shell \(900\), blockDestructive \(100\), quality-gate \(100\), SandboxPathsHook \(50\), audit-log \(10\).*; 0 problems/);
    expect(out).toMatch(/hook block-pipe-to-shell \(priority 900, [\d.]+ ms\) → block: Piping a download into a shell is not allowed/);
    expect(out).toMatch(/Stop +no_tool_calls\n(.*\n)* +hook quality-gate .* → block: Run the tests \(run_tests\) before stopping/);
    expect(out).toMatch(/Stop +no_tool_calls \(continuing\)\n(.*\n)* +hook quality-gate .* → proceed/);
    expect(out).toContain('notes  quality-gate: tests were run');
    expect(out).toContain('audit  2 tool calls logged in the background: write_file, run_tests');
    expect(out).not.toContain('warning');
    // The matcher keeps block-pipe-to-shell from running for any other call.
    expect(out.match(/hook block-pipe-to-shell/g)).toHaveLength(1);
    expect(out).toMatch(/run took [\d.]+ ms \(started_at set at ExecutionStart, read at ExecutionEnd\)/);
    expect(out).toContain('status completed (no_tool_calls) after 4 steps');
    // The lifecycle, in order.
    const events = [...out.matchAll(/▶ (\w+)/g)].map((m) => m[1]);
    expect(events.slice(0, 8)).toEqual(['SessionStart', 'ExecutionStart', 'UserPromptSubmit', 'BeforeStep', 'BeforeModel', 'BeforeToolSelection', 'AfterModel', 'PreToolUse']);
    expect(events.slice(-5)).toEqual(['Stop', 'AfterStop', 'AfterAgent', 'ExecutionEnd', 'SessionEnd']);
  },
  'streaming.ts': (out) => {
    const [checked, live, cancelled] = out.trim().split('\n\n');
    // The guard refused the second call before it ran; the redaction worked on the whole answer before any text of it
    // reached the stream.
    expect(checked).toContain('  step 1  I will list the files, then clean up.\n    → bash {"command":"ls"}\n    ← (pretend) ran ls');
    expect(checked).toContain('      PreToolUse: block (Destructive command refused)\n    ← Tool call blocked by a hook: Destructive command refused');
    expect(checked).toContain('  step 2  Listed them; the clean-up was refused. The deploy key is [redacted].');
    expect(checked).not.toContain('sk-live');
    expect(checked).toContain('run-end: completed after 2 steps');
    expect(live).toContain('  streamed: Listed them; the clean-up was refused. The deploy key is sk-live-abc123.\n  stands:   Listed them; the clean-up was refused. The deploy key is [redacted].');
    expect(cancelled).toContain('got "One two three "; the run rejected: AbortError');
  },
  'model-middleware.ts': (out) => {
    // The retry middleware recovered from the 503; AfterModel redacted the answer; the cache answered the second run.
    expect(out).toContain('first run   completed: The token is [redacted]; the config says debug=false.');
    expect(out).toContain('second run  completed: Paris. (from the cache)');
    expect(out).toContain('model calls 3 (one failed, 1 retry), temperature 0');
    // BeforeToolSelection kept the model to read-only tools, on the retried call too.
    expect(out).toContain('tools shown read_file');
    expect(out).toMatch(/timed +"Check the config\.": [\d.]+ ms → "I may use: read_file\."/);
    // The timing middleware reads the model's answer after next(), before AfterModel redacts it.
    expect(out).toMatch(/timed +"Check the config\.": [\d.]+ ms → "The token is sk-live-1234567890/);
    expect(out).toMatch(/timed +"What is the capital of France\?": [\d.]+ ms → "Paris\."/);
  },
  'ai-sdk.ts': (out) => {
    const [agent, loop, real] = out.trim().split('\n\n');
    // Our agent on an AI SDK model: AfterStep follows the step's tools.
    expect(agent).toContain('Our agent on aiSdkModel(model):');
    expect(agent).toMatch(/BeforeStep +step 1\n +PostToolUse +call_ls bash → \(pretend\) cd sandbox && ls: ok\n +AfterStep +step 1: 1 tool call\(s\), 52 tokens/);
    expect(agent).toMatch(/blocked +call_rm bash: Tool call blocked by a hook: Destructive command refused/);
    expect(agent).toContain('→ completed: Listed the files; deleting build was refused. (203 tokens)');
    // The same hooks in a generateText loop: the middleware's AfterStep comes when the model answered, before the tools.
    expect(loop).toContain('Your own generateText loop (scripted mock model):');
    expect(loop).toMatch(/AfterStep +step 1: 1 tool call\(s\), 52 tokens\n +PostToolUse +call_ls bash → \(pretend\) cd sandbox && ls: ok/);
    expect(loop).toMatch(/blocked +call_rm bash: Tool call blocked by a hook: Destructive command refused/);
    expect(loop).toContain('→ 3 steps: Listed the files; deleting build was refused.');
    if (process.env['OPENAI_API_KEY']) expect(real).toMatch(/^Your own generateText loop \(OpenAI /);
    else expect(real).toBe('OPENAI_API_KEY is not set: skipped the run against a real model. Set it to run the loop against OpenAI.');
  },
  'langchain.ts': (out) => {
    expect(out).toContain('tool call_rm: Tool call blocked by a hook: Destructive command refused');
    expect(out).toContain('tool call_ls: (pretend) cd sandbox && ls: ok');
    expect(out).toContain('user: Summarize what you did before you stop.');
    // Our agent's order: the model events around each call, AfterStep once a step's tools have run, the Stop gate after
    // the last step, twice.
    const model = 'BeforeModel → BeforeToolSelection → AfterModel';
    expect(out).toContain(
      `SessionStart → ExecutionStart → UserPromptSubmit → BeforeStep → ${model} → PreToolUse → AfterStep → BeforeStep → ${model} → PreToolUse → PostToolUse → AfterStep → BeforeStep → ${model} → AfterStep → Stop → BeforeStep → ${model} → AfterStep → Stop → AfterStop → AfterAgent → ExecutionEnd`,
    );
  },
  'openai-agents.ts': (out) => {
    expect(out).toContain('Blocked call_rm bash: Tool call blocked by a hook: Destructive command refused');
    // AfterModel redacted the answer before the SDK took it as the final output.
    expect(out).toContain('Final output: Listed the files with key [redacted]; rm was refused.');
    // BeforeToolSelection kept deploy from the model at every call.
    expect(out).toContain('Tools the model was offered: bash | bash | bash');
    expect(out).toContain('Tokens, as the SDK counted them: 203');
    const step = 'BeforeStep → BeforeModel → BeforeToolSelection → AfterModel → AfterStep';
    expect(out).toContain(`${step} → PreToolUse → ${step} → PreToolUse → PostToolUse → ${step}\n`);
  },
  'claude-agent-sdk.ts': (out) => {
    expect(out).toContain('query() ended: success');
    expect(out).toContain('build/keep.txt still there: true');
    expect(out).toContain('notes.txt: final');
    expect(out).toContain('the model was told "Destructive command refused" in request 2 of 4');
    expect(out).toContain('the model was told "Check notes.txt before you stop." in request 4');
    // The SDK fires PostToolBatch once a step's tool calls have resolved, the refused one's too.
    expect(out).toContain('UserPromptSubmit → PreToolUse(rm -rf build) → PostToolBatch → PreToolUse(echo draft > notes.txt) → PostToolUse → PostToolBatch → Stop → Stop');
  },
  'opencode-plugin.ts': (out) => {
    // The HOOK.md guard matched OpenCode's `bash` as `tool: Shell`; its reason is what OpenCode hands the model.
    expect(out).toContain('refused  bash: Piping a download into a shell is not allowed');
    expect(out).toContain('allowed  bash {"command":"ls build"}; the model reads:\nindex.js\n\nNote: the build folder is generated; do not edit it.');
  },
  'other-agents.ts': (out) => {
    expect(out).toContain("4 hooks from other agents' configs, 0 problems");
    expect(out).toMatch(/claude +PreToolUse +node "\$CLAUDE_PROJECT_DIR\/hooks\/no-force-push\.mjs"/);
    expect(out).toMatch(/copilot +PreToolUse +node hooks\/dry-run-publish\.mjs/);
    expect(out).toMatch(/gemini +PostToolUse +tool-notes/);
    expect(out).toContain('blocked bash {"command":"git push --force origin main"}: Tool call blocked by a hook: Force-pushing is not allowed');
    expect(out).toContain('ran: npm publish --dry-run');
    expect(out).toContain('context for the first model call: Project rule: never push with --force.');
    expect(out).toContain('Gemini hook: remember to update the changelog.');
    expect(out).toContain('status completed: Released.');
  },
  'built-in-hooks.ts': (out) => {
    expect(out).toContain('ran                  bash {"command":"ls -la"}');
    expect(out).toContain('DangerousCommandHook PreToolUse → block: Dangerous command refused: rm -r on /, ~, *, .. or a system directory');
    expect(out).toContain("ProtectedPathsHook   PreToolUse → block: Protected path: write_file may not write to .env (it matches '.env').");
    expect(out).toMatch(/RequireApprovalHook  PreToolUse → ask: Deploy to staging\?\n  approver +Deploy to staging\? yes/);
    expect(out).toMatch(/RequireApprovalHook  PreToolUse → ask: Deploy to production\?\n  approver +Deploy to production\? no/);
    expect(out).toContain('RateLimitHook        PreToolUse → block: Rate limit reached: at most 2 tool calls per 60 s');
    expect(out).toContain('ToolCallLimitHook    PreToolUse → block: Tool call limit reached: bash may be called at most 2 times per run.');
    // Each refusal is told once, by the hook that made it.
    expect(out.match(/→ block/g)).toHaveLength(4);
    expect(out).toContain('.env                 API_KEY=secret (unchanged); notes.md written');
    expect(out).toContain('ToolCallLimitHook    counted 7 calls: bash 2, write_file 1, deploy 2, search 2');
    expect(out).toMatch(/ExecutionTimingHook  run [\d.]+ ms, 6 steps, 6 tool calls timed/);
    // 47 lifecycle events (a PostToolBatch after each step's tool calls), and BeforeModel, BeforeToolSelection and
    // AfterModel in each of the 6 steps.
    expect(out).toContain('AuditLogHook         65 lines in .agent/audit.jsonl, from SessionStart to SessionEnd; 6 PreToolUse lines not proceed');
    expect(out).toContain('status               completed after 6 steps');
    expect(out).not.toContain('warning');
  },
  'stack-demo.ts': (out) => {
    expect(out).toContain('HookStack with 5 hooks');
    expect(out).toMatch(/PreToolUse bash +\{"command":"ls -la"\} +proceed/);
    expect(out).toMatch(/PreToolUse bash +\{"command":"rm -rf \/"\} +block: Destructive command refused/);
    expect(out).toContain('args → {"path":"sandbox/notes.md","content":"hello"}');
    expect(out).toMatch(/PreToolUse curl .* ask: Network access needs approval/);
    expect(out).toMatch(/PreToolUse read_file +\{"path":"package.json"\} +stop: Rate limit: more than 4 tool calls/);
    expect(out).toMatch(/Stop +"Done\." +block: Run the tests before stopping/);
    expect(out).toMatch(/Stop +"Done, tests pass\." +proceed/);
  },
  'quick-start.ts': (out) => {
    expect(out).toContain('tool result: Tool call blocked by a hook: Destructive command refused');
    expect(out).toContain('tool result: (pretend) ran ls');
    expect(out).toContain('completed: Listed the files; the delete was refused.');
  },
  'hook-class.ts': (out) => {
    // Later hooks and the model see the rewritten result; other files pass untouched.
    expect(out).toContain('later hook sees   .env: "OPENAI_API_KEY=[redacted]\\nDEBUG=1"');
    expect(out).toContain('later hook sees   README.md: "# Demo"');
    expect(out).toContain('the model sees    ["OPENAI_API_KEY=[redacted]\\nDEBUG=1","# Demo"]');
    expect(out).not.toContain('sk-abcdefghijklmnopqrstuvwx');
    expect(out).toContain('redacted 1 secret(s)');
    expect(out).toContain('in a HookStack    proceed → "password: [redacted]"');
  },
  'quality-gate.ts': (out) => {
    expect(out).toMatch(/^Stop \(no_tool_calls, continuation 0, stopHookActive false\): "Implemented sum\(\)\."\n/);
    expect(out).toContain('the model was told (user): Run the tests (run_tests) and make sure they pass before you finish.');
    expect(out).toContain('Stop (no_tool_calls, continuation 1, stopHookActive true): "Implemented sum(); 12 tests pass."');
    expect(out).toContain('→ completed after 4 steps: Implemented sum(); 12 tests pass.');
    expect(out).toContain('stop:forced: Stop hooks kept the agent working 2 times in a row; ending the run anyway');
    expect(out).toContain('→ completed after 3 steps\n');
  },
  'approval.ts': (out) => {
    expect(out).toBe(
      [
        'PermissionRequest deploy {"env":"staging"}: Deploy to staging?',
        'PermissionRequest deploy {"env":"production"}: Deploy to production?',
        'Notification (permission_prompt): Approval needed for deploy: Deploy to production?',
        'approver asked: Deploy to production? → no',
        'refused by the approver: deploy {"env":"production"}: Tool call refused: production deploys need a change ticket',
        'tool result: deployed to staging',
        'tool result: Tool call refused: production deploys need a change ticket',
        'completed: Staging is live; production was not approved.',
        '',
      ].join('\n'),
    );
  },
  'approval-review-server.ts': (out) => {
    expect(out).toContain('run: interrupted, 4 requests wait, nothing ran (0 effects)');
    expect(out).toContain('  deploy {"env":"production"} (allowed: approve, reject)\n  notify {"channel":"#general","text":"Deploying now"} (allowed: approve, edit, reject, respond)');
    expect(out).toContain('edit a deploy: 400 invalid-decision');
    expect(out).toContain('decide: 200 completed\n  Done: Tool call refused: production is frozen until Monday | posted to #releases | deployed to staging | on call for payments: Dana');
    expect(out).toContain('effects: notify #releases: Deploying to staging; deploy staging');
    expect(out).toContain('decide again: 404 not-found');
  },
  'approval-interrupt.ts': (out) => {
    const [first, second] = out.trim().split('\n\n');
    // Process 1 ran the status call, then the deploy's hooks, and stopped there.
    expect(first).toContain(
      'events: ExecutionStart → UserPromptSubmit → BeforeStep → BeforeModel → BeforeToolSelection → AfterModel → PreToolUse → PostToolUse → PreToolUse → PermissionRequest → Notification\n',
    );
    expect(first).toContain("interrupted, saved as 'release-42'");
    expect(first).toContain('tool result: build green, 0 open incidents');
    expect(first).toMatch(/pending: deploy \{"env":"production"\}: Deploy to production\? \(request apr_[\w-]+\)/);
    expect(first).not.toContain('deployed');
    // Process 2 found the snapshot on disk and went on from the deploy, with the reviewer's input: its hooks did not
    // run again, and no model call was made for the step the run stopped in.
    expect(second).toContain('the checkpointer holds: release-42\n  waiting: deploy {"env":"production"}: Deploy to production?');
    expect(second).toContain('  PostToolUse hook: deploy {"env":"staging"} → deployed to staging');
    expect(second).toContain(
      'events after the resume: PostToolUse → PostToolBatch → AfterStep → BeforeStep → BeforeModel → BeforeToolSelection → AfterModel → AfterStep → Stop → AfterStop → AfterAgent → ExecutionEnd\n',
    );
    expect(second).toContain('tool result: build green, 0 open incidents\n  tool result: deployed to staging\n');
    expect(second).toContain('completed: Status was green; deployed to staging.');
    expect(second).toContain('the checkpointer holds: 0 runs');
    expect(second).toContain("resume('release-42') again: ResumeError not-found");
    expect(second).toContain('resume(the loaded snapshot) again: ResumeError already-resumed');
    // The deploy's PermissionRequest and Notification hooks ran once, in process 1.
    expect(out.match(/PermissionRequest hook/g)).toHaveLength(1);
    expect(out.match(/Notification hook/g)).toHaveLength(1);
    expect(out).not.toContain('production"} → deployed');
  },
  'subagents.ts': (out) => {
    expect(out).toMatch(
      /PreToolUse researcher in the parent\n +SubagentStart researcher: "When was Node.js 20 released\?"\n +PreToolUse search in the subagent\n/,
    );
    // The SubagentStop gate sent the researcher back once, for its source.
    expect(out).toMatch(/SubagentStop researcher: "Node.js 20 came out on 18 April 2023\."\n +SubagentStop researcher: ".*\(source: nodejs\.org\)\."/);
    expect(out).toContain('the researcher was asked: When was Node.js 20 released? Always name your source.');
    expect(out).toContain("the parent's model got: Node.js 20 came out on 18 April 2023 (source: nodejs.org).");
    expect(out).toContain('completed: Node.js 20 was released on 18 April 2023.');
  },
  'compaction.ts': (out) => {
    expect(out).toMatch(/PreCompact \(auto\): 7 messages, archived\nPostCompact \(auto\): 7 → 3 messages\n/);
    expect(out).toContain('the 4th model call got 3 messages: system: Summary of 5 messages: read 2 file(s). | assistant: (tool call) | tool: contents of c.ts');
    expect(out).toContain('completed: Read all three files.');
    expect(out).toMatch(/PreCompact \(manual\): 4 messages, archived\nPostCompact \(manual\): 4 → 2 messages\n/);
    expect(out).toContain('after session.compact(): Summary of 3 messages: read 1 file(s). (The user cares about c.ts; keep file names)');
    expect(out).toContain('2 transcripts archived');
  },
  'claude-bridge.ts': (out) => {
    expect(out).toContain('Added the bridge to <project>/.claude/settings.json for PreToolUse, Stop.');
    expect(out).toContain(
      'settings.json hooks: {"PreToolUse":[{"matcher":"^(?:Bash|Execute|Shell|bash|runTerminalCommand|run_commands|run_in_terminal|run_shell_command)$|(?:Shell)","hooks":[{"type":"command","command":"NODE_OPTIONS= NODE_COMPILE_CACHE= \\"$CLAUDE_PROJECT_DIR\\"/node_modules/.bin/agent-hooks bridge --from claude","timeout":60}]}],' +
        '"Stop":[{"hooks":[{"type":"command","command":"NODE_OPTIONS= NODE_COMPILE_CACHE= \\"$CLAUDE_PROJECT_DIR\\"/node_modules/.bin/agent-hooks bridge --from claude","timeout":60}]}]}',
    );
    expect(out).toMatch(/untrusted +no-recursive-delete +HOOK\.md +\.agents\/hooks\/no-recursive-delete\/HOOK\.md +\.agents\/hooks\/no-recursive-delete\/scripts\/run/);
    expect(out).toContain('Trusted 2 hooks in <scratch>/config/agent-hooks/trust.json.');
    const answers = [...out.matchAll(/bridge +← (.*)/g)].map((m) => m[1]);
    expect(answers).toEqual([
      'exit 0, stdout {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Recursive deletes are not allowed here (rm -rf build/). Delete single files instead."}}',
      'exit 0, stdout (empty: go on)',
      'exit 0, stdout {"decision":"block","reason":"Run npm test and say whether it passes before you stop."}',
      'exit 0, stdout (empty: go on)',
    ]);
  },
};

/** Examples that need a server, each run by its own test (in `npm run test:slow`) against a private one it starts. */
const RUN_ELSEWHERE: Record<string, string> = {
  'redis-checkpointer.ts': 'test/examples/redis-checkpointer.slow.test.ts',
};

describe('examples', () => {
  const files = readdirSync(new URL('../../examples/', import.meta.url)).filter((f) => f.endsWith('.ts'));

  it('every example has an expectation', () => {
    expect(files.sort()).toEqual([...Object.keys(expectations), ...Object.keys(RUN_ELSEWHERE)].sort());
    for (const test of Object.values(RUN_ELSEWHERE)) expect(existsSync(new URL(`../../${test}`, import.meta.url)), test).toBe(true);
  });

  for (const file of files.filter((f) => RUN_ELSEWHERE[f] === undefined)) {
    it(`${file} runs and prints what it promises`, async () => {
      // Colour codes are stripped: picocolors turns colours on under CI even when stdout is a pipe.
      const { stdout } = await run(tsx, [`examples/${file}`], { cwd: root, timeout: 60_000 });
      expectations[file]?.(stripVTControlCharacters(stdout));
    });
  }
});
