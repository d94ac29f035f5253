/**
 * Claude Code's `CLAUDE_ENV_FILE`: a SessionStart hook is given a file of its own to write shell lines to
 * (`export FOO=bar`), and Claude Code runs what the session's hooks wrote ahead of each later Bash command. As Claude
 * Code 2.1.332 does it (test/agents/claude-rules-env-file.test.ts): only SessionStart hooks get the variable; each
 * gets its own file (`sessionstart-hook-<n>.sh`); the lines reach the Bash commands only — no later hook, and not
 * Claude Code's own process, sees a variable they set.
 *
 * Here the files are in a private folder of the session's, made anew by this process (never a path in the project,
 * nor one that existed before), so a repository cannot put lines there ahead of the hooks; a tool that runs shell
 * commands gets the lines as `ToolRunContext.shellSetup`. Nothing else reads them: the hooks' environment and
 * `process.env` stay as they were, so an env file cannot set `NODE_OPTIONS`, `PATH` or `AGENT_HOOKS_TRUST` for a
 * hook, a bridge line or agent-hooks itself.
 *
 * @module
 * @internal
 */
import { nodeFs } from '../core/internal/node-fs.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { closeSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } = nodeFs;

/** One session's folder, and how many files its SessionStart hooks were given. */
interface SessionEnv {
  readonly dir: string;
  files: number;
}

const sessions = new Map<string, SessionEnv>();

/**
 * A new, empty file for one SessionStart hook run of session `sessionId`, to be its `CLAUDE_ENV_FILE`; `undefined`
 * when none can be made (the hook then runs without the variable, as a Claude Code hook outside a session does).
 *
 * @internal
 */
export function newSessionEnvFile(sessionId: string): string | undefined {
  try {
    let session = sessions.get(sessionId);
    if (session === undefined) {
      // mkdtemp makes the folder with mode 0700, under a name nobody could have chosen first.
      session = { dir: mkdtempSync(join(tmpdir(), 'agent-hooks-session-env-')), files: 0 };
      sessions.set(sessionId, session);
    }
    const file = join(session.dir, `sessionstart-hook-${session.files++}.sh`);
    // `wx`: created here, or not at all — never a file (or a link) that was there before.
    closeSync(openSync(file, 'wx', 0o600));
    return file;
  } catch {
    return undefined;
  }
}

/**
 * What the SessionStart hooks of session `sessionId` wrote to their env files, in the order they ran, as the lines
 * Claude Code runs ahead of a Bash command; `undefined` when they wrote nothing.
 *
 * @internal
 */
export function sessionShellSetup(sessionId: string | undefined): string | undefined {
  const session = sessionId === undefined ? undefined : sessions.get(sessionId);
  if (session === undefined) return undefined;
  const texts: string[] = [];
  for (let i = 0; i < session.files; i++) {
    try {
      const text = readFileSync(join(session.dir, `sessionstart-hook-${i}.sh`), 'utf8').trim();
      if (text !== '') texts.push(text);
    } catch {
      // A file its hook removed holds nothing for the commands.
    }
  }
  return texts.length === 0 ? undefined : texts.join('\n');
}

/**
 * Removes session `sessionId`'s env files, once the session has ended.
 *
 * @internal
 */
export function forgetSessionEnv(sessionId: string): void {
  const session = sessions.get(sessionId);
  if (session === undefined) return;
  sessions.delete(sessionId);
  try {
    for (const name of readdirSync(session.dir)) rmSync(join(session.dir, name), { force: true, recursive: true });
    rmSync(session.dir, { force: true, recursive: true });
  } catch {
    // A temporary folder left behind is the system's to clean.
  }
}
