/**
 * The fault matrix: every way a hook process can misbehave, how each kind of hook reports it, and what it decides when
 * the hook fails open and when it fails closed. The tests beside this file drive each row through real processes, and
 * the README's table "What happens when a hook fails" is checked against it, so the table says what the tests prove.
 */

/** Timeout of the rows whose fault is a process that does not end by itself, in ms. */
export const FAULT_TIMEOUT_MS = 400;
/** Time between SIGTERM and SIGKILL in these tests, in ms. */
export const KILL_GRACE_MS = 200;
/** Timeout of every other row: long enough never to be the cause, even on a loaded machine. */
export const NO_TIMEOUT_MS = 20_000;
/** The default cap on each of stdout and stderr (1 MiB), which the flooding rows run into. */
export const OUTPUT_CAP_BYTES = 1024 * 1024;
/** The tool input sent to the script that never reads its stdin: a few MB, far past a pipe's buffer. */
export const LARGE_PAYLOAD_BYTES = 4 * 1024 * 1024;
/** Chunks of 1 MiB the flooding script tries to print: 100 MB. */
export const FLOOD_CHUNKS = 100;
/** Where, in the project, a script of a {@link FaultRow.cancelled} row writes its pid once it runs. */
export const HOOK_PID_FILE = 'hook.pid';

/**
 * How a fault is read, whatever the fail mode:
 * - `failure`: no usable answer. Failing open, the action goes on with a warning note; failing closed, it is blocked
 *   with a reason naming the hook and the fault (and the same note).
 * - `deny`: a deliberate block (exit 2). Blocked either way, with no note.
 * - `answer`: the process answered; its answer counts either way, with no note.
 * - `cancelled`: the run was cancelled under the hook. Blocked either way, with an `aborted` note: a cancelled run acts
 *   on nothing, so failing open never lets the action go on (the agent's run ends with the signal's reason).
 * - `agent-killed`: the agent killed the bridge while the hook ran. No answer reaches the agent, whatever the fail
 *   mode: the agent decides by its own rule for a hook it killed; the hook's processes are ended (see the row).
 */
export type FaultKind = 'failure' | 'deny' | 'answer' | 'cancelled' | 'agent-killed';

/** The two kinds of process hook a row runs through. */
export type Carrier = 'hookmd' | 'claude';

/** What to do to a loaded hook before it runs: the fault happens between loading and running. */
export type AfterLoad = 'remove-script' | 'chmod-script';

/** How one kind of hook meets a fault. */
export interface CarrierFault {
  /** The note code; `undefined` when there is no note (a deny or an answer). */
  readonly code: string | undefined;
  /** What the note's message and a fail-closed reason say about the fault. */
  readonly cause: RegExp;
  /**
   * The script, with its `#!` line; `undefined` writes none. For a HOOK.md hook it is `scripts/run`, for a Claude
   * Code entry the file `path` names.
   */
  readonly script: string | undefined;
  /** The file mode of the script (default 0o755). */
  readonly mode?: number;
  /** Claude Code entries only: the command, and the script's path relative to the project (which heals it). */
  readonly command?: { readonly text: string; readonly path: string };
  /** HOOK.md only: load without checking the script entry (`checkEntries: false`). */
  readonly uncheckedEntry?: boolean;
  /** HOOK.md only: what happens to the hook folder after discovery. */
  readonly afterLoad?: AfterLoad;
  /** Whether no process is spawned at all (the entry is not found). */
  readonly spawnsNothing?: boolean;
  /**
   * Claude Code entries only: the fault is noted and the action goes on under either fail mode, as Claude Code does
   * (it reads output that starts with `{` and is not JSON as plain text, `onFailure: "block"` notwithstanding).
   */
  readonly goesOn?: boolean;
}

/** One row of the matrix. */
export interface FaultRow {
  /** A stable id, for test names. */
  readonly id: string;
  /** The fault, as the README's table names it. */
  readonly fault: string;
  /** How it is read (see {@link FaultKind}). */
  readonly kind: FaultKind;
  /** Whether the fault is a process that must be killed at its timeout ({@link FAULT_TIMEOUT_MS}). */
  readonly timesOut?: boolean;
  /** Whether the script starts a grandchild and writes its pid to `grandchild.pid` in the project. */
  readonly grandchild?: boolean;
  /** Whether the tool input is {@link LARGE_PAYLOAD_BYTES} long. */
  readonly largePayload?: boolean;
  /** Whether the script floods its output: its stdout is cut at {@link OUTPUT_CAP_BYTES}. */
  readonly floods?: boolean;
  /**
   * Whether the run is cancelled under the hook: the script writes its pid to {@link HOOK_PID_FILE} in the project and
   * waits, and the test aborts the dispatch's (or the run's) signal once it is there.
   */
  readonly cancelled?: boolean;
  /**
   * Whether the row runs through a real bridge process that the test kills (SIGTERM, and SIGKILL) while the hook
   * runs, instead of through a HookStack: `test/faults/bridge-killed.test.ts` drives it.
   */
  readonly bridgeKilled?: boolean;
  /** The note-code cell, where the carriers' codes do not say it. */
  readonly codeText?: string;
  /** The HOOK.md hook's part. */
  readonly hookmd: CarrierFault;
  /** The Claude Code command hook's part, where it adds something. */
  readonly claude?: CarrierFault;
}

const sh = (body: string): string => `#!/bin/sh\n${body}\n`;
const TIMED_OUT = new RegExp(`timed out after ${FAULT_TIMEOUT_MS} ms and was killed`);
const CLAUDE_SCRIPT = '.claude/hooks/check';
const claudeCommand = (path = CLAUDE_SCRIPT) => ({ text: `"$CLAUDE_PROJECT_DIR/${path}"`, path });
const flood = `#!/usr/bin/env node
const { writeFileSync } = require('node:fs');
const chunk = Buffer.alloc(1024 * 1024, 'x\\n');
let written = 0;
process.stdout.on('error', () => process.exit(1));
(function write() {
  while (written < ${FLOOD_CHUNKS}) {
    written++;
    writeFileSync(process.env.AGENT_HOOKS_PROJECT_DIR + '/flood.progress', String(written));
    if (!process.stdout.write(chunk)) return void process.stdout.once('drain', write);
  }
})();
`;

/** Every fault, in the order of the README's table. */
export const FAULTS: readonly FaultRow[] = [
  {
    id: 'hang',
    fault: 'hangs forever',
    kind: 'failure',
    timesOut: true,
    hookmd: { code: 'timeout', cause: TIMED_OUT, script: sh('cat > /dev/null\nexec sleep 1000') },
    claude: { code: 'timeout', cause: TIMED_OUT, script: sh('cat > /dev/null\nexec sleep 1000'), command: claudeCommand() },
  },
  {
    id: 'grandchild-holds-stdout',
    fault: 'sleeps past its timeout while a grandchild holds stdout open',
    kind: 'failure',
    timesOut: true,
    grandchild: true,
    hookmd: {
      code: 'timeout',
      cause: TIMED_OUT,
      script: sh(`cat > /dev/null\nsh -c 'echo $$ > "$AGENT_HOOKS_PROJECT_DIR/grandchild.pid"; exec sleep 1000' &\nexec sleep 1000`),
    },
  },
  {
    id: 'ignores-sigterm',
    fault: 'ignores SIGTERM (SIGKILL follows after the grace period)',
    kind: 'failure',
    timesOut: true,
    hookmd: { code: 'timeout', cause: TIMED_OUT, script: sh(`cat > /dev/null\ntrap '' TERM\nexec sleep 1000`) },
  },
  {
    id: 'exit-1',
    fault: 'exits 1',
    kind: 'failure',
    hookmd: { code: 'exit-code', cause: /exited with code 1: lint crashed/, script: sh('cat > /dev/null\necho "lint crashed" >&2\nexit 1') },
    claude: {
      code: 'exit-code',
      cause: /exited with code 1: lint crashed/,
      script: sh('cat > /dev/null\necho "lint crashed" >&2\nexit 1'),
      command: claudeCommand(),
    },
  },
  {
    id: 'exit-2-empty-stderr',
    fault: 'exits 2 with empty stderr (a deliberate deny)',
    kind: 'deny',
    hookmd: { code: undefined, cause: /^blocked by hook '.+' \(exit 2\)$/, script: sh('cat > /dev/null\nexit 2') },
    claude: { code: undefined, cause: /^blocked by hook '.+' \(exit 2\)$/, script: sh('cat > /dev/null\nexit 2'), command: claudeCommand() },
  },
  {
    id: 'interpreter-missing',
    fault: 'its interpreter is missing (`#!/nonexistent/interp`)',
    kind: 'failure',
    hookmd: {
      code: 'spawn-error',
      cause: /could not start: .*scripts\/run exists, but the interpreter on its #! line was not found/,
      script: '#!/nonexistent/interp\necho hi\n',
    },
    claude: {
      code: 'spawn-error',
      cause: /exited with 127: interpreter or command not found: .*check: not found/,
      script: '#!/nonexistent/interp\necho hi\n',
      command: claudeCommand(),
    },
  },
  {
    id: 'command-not-found',
    fault: 'runs a command that does not exist (exit 127)',
    kind: 'failure',
    hookmd: {
      code: 'spawn-error',
      cause: /exited with 127: interpreter or command not found: .*nonexistent-cmd-7f3a: not found/,
      script: sh('cat > /dev/null\nnonexistent-cmd-7f3a --check'),
    },
    claude: {
      code: 'spawn-error',
      cause: /exited with 127: interpreter or command not found: .*bin\/nonexistent-cmd: not found/,
      script: undefined,
      command: claudeCommand('bin/nonexistent-cmd'),
    },
  },
  {
    id: 'killed-by-signal',
    fault: 'is killed by a signal',
    kind: 'failure',
    hookmd: { code: 'signal', cause: /was killed by SIGKILL/, script: sh('cat > /dev/null\nkill -KILL $$') },
    // The shell that runs a command hook outlives the script and reports it the shell's way: 128 + the signal.
    claude: { code: 'exit-code', cause: /exited with code 137: Killed/, script: sh('cat > /dev/null\nkill -KILL $$'), command: claudeCommand() },
  },
  {
    id: 'never-reads-stdin',
    fault: 'never reads stdin (a tool input of 4 MB: EPIPE on our side)',
    kind: 'answer',
    largePayload: true,
    hookmd: { code: undefined, cause: /./, script: sh('exit 0') },
    claude: { code: undefined, cause: /./, script: sh('exit 0'), command: claudeCommand() },
  },
  {
    id: 'closes-stdout-early',
    fault: 'closes stdout and stderr early, then keeps running',
    kind: 'failure',
    timesOut: true,
    hookmd: { code: 'timeout', cause: TIMED_OUT, script: sh('cat > /dev/null\nexec >&- 2>&-\nexec sleep 1000') },
  },
  {
    id: 'invalid-json',
    fault: 'prints invalid JSON',
    kind: 'failure',
    hookmd: { code: 'invalid-output', cause: /printed output that is not JSON/, script: sh(`cat > /dev/null\necho '{"decision": "deny",'`) },
    claude: {
      code: 'invalid-output',
      cause: /printed output that (?:starts with \{ but )?is not JSON/,
      script: sh(`cat > /dev/null\necho '{"hookSpecificOutput": {'`),
      command: claudeCommand(),
      goesOn: true,
    },
  },
  {
    id: 'floods-100mb',
    fault: 'prints 100 MB',
    kind: 'failure',
    floods: true,
    hookmd: { code: 'output-overflow', cause: new RegExp(`wrote more than ${OUTPUT_CAP_BYTES} bytes to stdout and was killed`), script: flood },
    claude: {
      code: 'output-overflow',
      cause: new RegExp(`wrote more than ${OUTPUT_CAP_BYTES} bytes to stdout and was killed`),
      script: flood,
      command: claudeCommand(),
    },
  },
  {
    id: 'huge-single-line',
    fault: 'prints a huge single line without a newline (3 MiB)',
    kind: 'failure',
    floods: true,
    hookmd: {
      code: 'output-overflow',
      cause: new RegExp(`wrote more than ${OUTPUT_CAP_BYTES} bytes to stdout and was killed`),
      script: `#!/usr/bin/env node\nprocess.stdout.on('error', () => process.exit(1));\nprocess.stdout.write('{"reason":"' + 'x'.repeat(3 * 1024 * 1024));\n`,
    },
  },
  {
    id: 'non-utf8',
    fault: 'prints bytes that are not UTF-8',
    kind: 'failure',
    hookmd: { code: 'invalid-output', cause: /printed output that is not UTF-8/, script: sh(`cat > /dev/null\nprintf '\\377\\376{"decision":"deny"}\\n'`) },
  },
  {
    id: 'non-utf8-in-json',
    fault: 'prints valid JSON holding bytes that are not UTF-8',
    kind: 'failure',
    hookmd: { code: 'invalid-output', cause: /printed output that is not UTF-8/, script: sh(`cat > /dev/null\nprintf '{"decision":"deny","reason":"\\377"}\\n'`) },
    claude: {
      code: 'invalid-output',
      cause: /printed output that is not UTF-8/,
      script: sh(`cat > /dev/null\nprintf '{"decision":"block","reason":"\\377"}\\n'`),
      command: claudeCommand(),
    },
  },
  {
    id: 'script-missing',
    fault: 'its script file is missing when it runs',
    kind: 'failure',
    hookmd: {
      code: 'no-entry',
      cause: /cannot run its script: The hook has nothing to run: add an executable scripts\/run/,
      script: undefined,
      uncheckedEntry: true,
      spawnsNothing: true,
    },
    claude: { code: 'spawn-error', cause: /exited with 127: interpreter or command not found: .*check: not found/, script: undefined, command: claudeCommand() },
  },
  {
    id: 'not-executable',
    fault: 'its script is not executable',
    kind: 'failure',
    hookmd: {
      code: 'not-executable',
      cause: /cannot run its script: scripts\/run is not executable: run chmod \+x/,
      script: sh('exit 0'),
      afterLoad: 'chmod-script',
      spawnsNothing: true,
    },
    claude: {
      code: 'spawn-error',
      cause: /exited with 126: a command was found but is not executable: .*check: Permission denied/,
      script: sh('exit 0'),
      mode: 0o644,
      command: claudeCommand(),
    },
  },
  {
    id: 'deleted-after-discovery',
    fault: 'its script is deleted between discovery and the run',
    kind: 'failure',
    hookmd: {
      code: 'no-entry',
      cause: /cannot run its script: The hook has nothing to run: add an executable scripts\/run/,
      script: sh('exit 0'),
      afterLoad: 'remove-script',
      spawnsNothing: true,
    },
  },
  {
    id: 'run-cancelled',
    fault: 'is running, or waiting for a process slot, when the run is cancelled',
    kind: 'cancelled',
    cancelled: true,
    hookmd: { code: 'aborted', cause: /was cancelled: the run was aborted/, script: sh(`cat > /dev/null\necho $$ > "$AGENT_HOOKS_PROJECT_DIR/${HOOK_PID_FILE}"\nexec sleep 1000`) },
    claude: {
      code: 'aborted',
      cause: /was cancelled: the run was aborted/,
      script: sh(`cat > /dev/null\necho $$ > "$AGENT_HOOKS_PROJECT_DIR/${HOOK_PID_FILE}"\nexec sleep 1000`),
      command: claudeCommand(),
    },
  },
  {
    id: 'bridge-killed',
    fault: 'is running when the agent kills the bridge (SIGTERM, or SIGKILL)',
    kind: 'agent-killed',
    bridgeKilled: true,
    codeText: '`aborted` on SIGTERM, on the bridge’s stderr; none on SIGKILL',
    hookmd: { code: 'aborted', cause: /SIGTERM received: stopping the hooks and exiting/, script: undefined },
  },
];

/** The rows that also run through the agent loop (AgentBuilder + ScriptedModel). */
export const AGENT_ROWS: readonly string[] = [
  'hang',
  'exit-1',
  'exit-2-empty-stderr',
  'command-not-found',
  'never-reads-stdin',
  'floods-100mb',
  'deleted-after-discovery',
  'run-cancelled',
];

/** The row with this id. */
export function faultRow(id: string): FaultRow {
  const row = FAULTS.find((r) => r.id === id);
  if (row === undefined) throw new Error(`no fault row '${id}'`);
  return row;
}

/** The carriers a row runs through. */
export function carriersOf(row: FaultRow): Carrier[] {
  return row.claude === undefined ? ['hookmd'] : ['hookmd', 'claude'];
}

/** The README's outcome cells, one per kind and fail mode. */
export const OUTCOME_TEXT: Readonly<Record<FaultKind, { open: string; closed: string }>> = {
  failure: {
    open: 'goes on, with the warning',
    closed: 'blocked: the reason names the hook and the fault',
  },
  deny: {
    open: 'blocked: stderr, or a default naming the hook and exit 2, is the reason; no note',
    closed: 'blocked, the same way',
  },
  answer: {
    open: 'its answer counts; no note',
    closed: 'its answer counts; no note',
  },
  cancelled: {
    open: 'blocked, never run: the run ends with the signal’s reason',
    closed: 'blocked, the same way',
  },
  'agent-killed': {
    open: 'no answer: the agent’s own rule for a hook it killed decides; the hook’s processes are killed (after a SIGKILL, once the hook has run a second)',
    closed: 'the same: no answer reaches the agent',
  },
};

/** The README's note-code cell of a row: the HOOK.md code, and the command hook's where it differs. */
export function codeCell(row: FaultRow): string {
  if (row.codeText !== undefined) return row.codeText;
  const code = (c: CarrierFault): string => (c.code === undefined ? 'none' : `\`${c.code}\``);
  const hookmd = code(row.hookmd);
  if (row.claude === undefined || row.claude.code === row.hookmd.code) return hookmd;
  return `${hookmd}; command hook: ${code(row.claude)}`;
}

/** The README table's rows, as the matrix defines them: fault, note code, fail-open, fail-closed. */
export function tableRows(): string[][] {
  return FAULTS.map((row) => [row.fault, codeCell(row), OUTCOME_TEXT[row.kind].open, OUTCOME_TEXT[row.kind].closed]);
}
