/**
 * `agent-hooks init`: scaffolds a HOOK.md hook whose script shows every way a hook can answer.
 *
 * @module
 */
import { nodeFs, fsPromises } from '../../core/internal/node-fs.js';
import { join } from 'node:path';
import { HookEvent, type HookEventName } from '../../core/index.js';
import { projectHooksDir, validateFrontmatter } from '../../script/index.js';
import { parseEvent, parseFlags, positionalsUpTo, projectDirOf } from '../args.js';
import { ExitCode, UsageError, type Command } from '../command.js';
import { displayPath } from '../output.js';
import { scaffoldDescription } from '../scaffold-description.js';

const { existsSync } = nodeFs;

/** The script languages `--lang` offers, and the entry each one is written to (see `SCRIPT_ENTRY_NAMES`). */
const LANGS = {
  // No `run.js` entry exists; an executable `scripts/run` with a node shebang is the entry.
  node: 'scripts/run',
  sh: 'scripts/run.sh',
  py: 'scripts/run.py',
} as const;

type Lang = keyof typeof LANGS;

/** Whether hooks of `event` may hand back a rewritten tool input. */
const rewritesInput = (event: HookEventName): boolean => event === 'PreToolUse' || event === 'PermissionRequest';

function hookMd(name: string, description: string, trigger: string, event: HookEventName, entry: string): string {
  const matcher = HookEvent.isToolEvent(event)
    ? `# matcher:              # both regexes must match; without a matcher the hook sees every tool call
#   tool: Shell           # every agent's shell tool: Bash, bash, run_shell_command, …
#   pattern: "rm\\\\s+-rf"
`
    : '';
  return `---
name: ${name}
description: ${JSON.stringify(description)}
trigger: ${trigger}
${matcher}# priority: 100          # 0-1000, higher runs first
# timeout: 30000         # milliseconds
# async: false           # true: runs in the background and can neither block nor modify
---

# ${name}

${description}

\`${entry}\` gets the event as JSON on stdin and answers with its exit code:

- exit 0, no output: the action goes on;
- exit 2: the action is blocked, and stderr is the reason;
- exit 0 with JSON on stdout: \`{"decision": "deny", "reason": "…"}\` blocks${rewritesInput(event) ? ', `{"modified_input": {…}}` rewrites the tool input' : ''}, \`additional_context\` is passed to the model;
${rewritesInput(event) ? ALLOW_NOTE : ''}- any other exit code, a crash or a timeout: a failure; the action goes on, with a warning.
`;
}

/** An allow is an approval, not a way to say "go on": authors copying the scaffold must know what it waives. */
const ALLOW_NOTE = `- \`"decision": "allow"\` approves the call outright: the agent then skips its own permission prompt for it
  (Claude Code does, through the bridge). Leave it out to let the agent's permission rules judge the call, rewritten
  or not, as the scaffold does.
`;

const SH_REWRITE = `
# ...or let it go on with a rewritten tool input. A real hook builds it from tool_input (jq is handy for that).
# No "decision": "allow" here: that would approve the call and skip the agent's own permission prompt for it (Claude
# Code does, through the bridge), so the rewritten command would run unasked. Without it the agent still judges it.
case "$input" in
  *'"command": "npm install"'*)
    printf '%s\\n' '{"modified_input": {"command": "npm install --ignore-scripts"}, "additional_context": "Install scripts were turned off by a hook."}'
    exit 0
    ;;
esac
`;

const NODE_REWRITE = `
  // ...or let it go on with a rewritten tool input. No decision: 'allow' here: that would approve the call and skip
  // the agent's own permission prompt for it (Claude Code does, through the bridge), so the rewritten command would
  // run unasked. Without it the agent still judges it.
  const command = event.tool_input?.command;
  if (typeof command === 'string' && /^npm install\\b/.test(command) && !command.includes('--ignore-scripts')) {
    console.log(JSON.stringify({
      modified_input: { ...event.tool_input, command: \`\${command} --ignore-scripts\` },
      additional_context: 'Install scripts were turned off by a hook.',
    }));
    return;
  }
`;

const PY_REWRITE = `
# ...or let it go on with a rewritten tool input. No "decision": "allow" here: that would approve the call and skip
# the agent's own permission prompt for it (Claude Code does, through the bridge), so the rewritten command would
# run unasked. Without it the agent still judges it.
command = (tool_input or {}).get("command")
if isinstance(command, str) and re.match(r"npm install\\b", command) and "--ignore-scripts" not in command:
    print(json.dumps({
        "modified_input": {**tool_input, "command": command + " --ignore-scripts"},
        "additional_context": "Install scripts were turned off by a hook.",
    }))
    sys.exit(0)
`;

function script(lang: Lang, name: string, event: HookEventName): string {
  const rewrite = rewritesInput(event);
  const intro = `The ${name} hook gets the event as JSON on stdin and answers with its exit code (and, on exit 0, JSON
on stdout). Each branch below shows one way to answer: replace the conditions with your own checks.`;
  switch (lang) {
    case 'sh':
      return `#!/bin/sh
${intro.replace(/^/gm, '# ')}
input=$(cat)

# Block: exit 2, and stderr is the reason.
case "$input" in
  *'rm -rf'*)
    echo "Refusing a recursive forced delete (rm -rf)." >&2
    exit 2
    ;;
esac

# Decide in JSON on stdout, with exit 0: refuse, with a reason...
case "$input" in
  *'git push --force'*)
    printf '%s\\n' '{"decision": "deny", "reason": "Force-pushing is not allowed in this project."}'
    exit 0
    ;;
esac
${rewrite ? SH_REWRITE : ''}
# Anything else: exit 0 and print nothing, and the action goes on. Any other exit code is a failure: the action goes
# on, with a warning.
exit 0
`;
    case 'node':
      return `#!/usr/bin/env node
${intro.replace(/^/gm, '// ')}
let data = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (data += chunk));
process.stdin.on('end', () => {
  // event_type, session_id, work_dir, and the event's own fields: tool_name, tool_input, prompt, stop_reason, …
  const event = JSON.parse(data || '{}');
  const text = JSON.stringify(event.tool_input ?? event);

  // Block: exit 2, and stderr is the reason.
  if (text.includes('rm -rf')) {
    process.stderr.write('Refusing a recursive forced delete (rm -rf).\\n');
    process.exit(2);
  }

  // Decide in JSON on stdout, with exit 0: refuse, with a reason...
  if (text.includes('git push --force')) {
    console.log(JSON.stringify({ decision: 'deny', reason: 'Force-pushing is not allowed in this project.' }));
    return;
  }
${rewrite ? NODE_REWRITE : ''}
  // Anything else: exit 0 and print nothing, and the action goes on. Any other exit code is a failure: the action
  // goes on, with a warning.
});
`;
    case 'py':
      return `#!/usr/bin/env python3
${intro.replace(/^/gm, '# ')}
import json
import re
import sys

# event_type, session_id, work_dir, and the event's own fields: tool_name, tool_input, prompt, stop_reason, …
event = json.loads(sys.stdin.read() or "{}")
tool_input = event.get("tool_input")
text = json.dumps(tool_input if tool_input is not None else event)

# Block: exit 2, and stderr is the reason.
if "rm -rf" in text:
    print("Refusing a recursive forced delete (rm -rf).", file=sys.stderr)
    sys.exit(2)

# Decide in JSON on stdout, with exit 0: refuse, with a reason...
if "git push --force" in text:
    print(json.dumps({"decision": "deny", "reason": "Force-pushing is not allowed in this project."}))
    sys.exit(0)
${rewrite ? PY_REWRITE : ''}
# Anything else: exit 0 and print nothing, and the action goes on. Any other exit code is a failure: the action goes
# on, with a warning.
sys.exit(0)
`;
  }
}

/** `init` prints what it wrote and what to try next; it has no `--json`. Exit 1 when the hook folder exists. */
export const initCommand: Command = {
  name: 'init',
  synopsis: 'init <name> [--event E] [--lang sh|node|py] [--description TEXT] [--project DIR]',
  summary: 'scaffold .agents/hooks/<name>/HOOK.md and a script that shows every way to answer',
  help: `Options:
  --event E            the trigger, any dialect's name (default pre-tool-call); written as the HOOK.md
                       format names it (PreToolUse: pre-tool-call), so that every runtime loads the hook
  --lang sh|node|py    the script's language (default sh): scripts/run.sh, scripts/run (node) or scripts/run.py
  --description TEXT   the HOOK.md description
  --project DIR        the project (default: the current directory)

The name takes lowercase letters, digits and single hyphens. An existing hook folder is never overwritten (exit 1).`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      event: { type: 'string' },
      lang: { type: 'string' },
      description: { type: 'string' },
      project: { type: 'string' },
    });
    const [name] = positionalsUpTo(positionals, 1);
    if (name === undefined) throw new UsageError('name the hook: agent-hooks init <name>');
    const lang = values.lang ?? 'sh';
    if (!Object.hasOwn(LANGS, lang)) throw new UsageError(`--lang must be one of ${Object.keys(LANGS).join(', ')}, got ${JSON.stringify(lang)}`);
    const event = parseEvent(values.event ?? 'pre-tool-call');
    // Another agent's name loads here but not in the reference runtime, and validate warns about it: the format's
    // own name is written where there is one.
    const portable = HookEvent.toDialect(event, 'hookmd');
    const trigger = portable ?? values.event!;
    const description = values.description ?? scaffoldDescription(name);
    const dir = join(projectHooksDir(projectDirOf(io, values.project)), name);
    const file = join(dir, 'HOOK.md');

    // The same rules discovery applies, so that what init writes always loads.
    const { problems } = validateFrontmatter({ name, description, trigger }, { file, dir });
    const errors = problems.filter((p) => p.severity === 'error');
    if (errors.length > 0) throw new UsageError(errors.map((p) => p.message).join(' '));
    if (existsSync(dir)) {
      io.err(`agent-hooks init: ${displayPath(dir, io.cwd)} already exists; nothing was written. Choose another name, or remove it first.`);
      return ExitCode.problems;
    }

    const entry = LANGS[lang as Lang];
    const scriptPath = join(dir, entry);
    await fsPromises().mkdir(join(dir, 'scripts'), { recursive: true });
    await fsPromises().writeFile(file, hookMd(name, description, trigger, event, entry), { flag: 'wx' });
    await fsPromises().writeFile(scriptPath, script(lang as Lang, name, event), { flag: 'wx', mode: 0o755 });

    const s = io.style;
    const project = values.project === undefined ? '' : ` --project ${values.project}`;
    const sample = HookEvent.isToolEvent(event) ? ` --tool bash --args '{"command":"rm -rf /"}'` : '';
    io.out(`${s.green('Created')} ${displayPath(file, io.cwd)}`);
    io.out(`${s.green('Created')} ${displayPath(scriptPath, io.cwd)}`);
    if (portable === undefined) {
      io.err(`agent-hooks init: the HOOK.md format has no trigger for ${event}, so the hook says trigger: ${trigger}. It runs with agent-hooks, but the format's reference runtime will not load it.`);
    }
    // By its path: a project hook named runs only once trusted, and this one is new.
    io.out(`\nTry it:\n  agent-hooks validate ${displayPath(dir, io.cwd)}\n  agent-hooks test ${displayPath(dir, io.cwd)}${project}${sample}`);
    return ExitCode.ok;
  },
};
