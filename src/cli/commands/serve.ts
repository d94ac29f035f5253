/**
 * `agent-hooks serve`: the bridge's hooks as a long-running HTTP hook endpoint, for Claude Code's `type: "http"`
 * hooks — no process started per tool call.
 *
 * @module
 */
import { fsPromises } from '../../core/internal/node-fs.js';
import { resolve } from 'node:path';
import { startHookServer, isLoopback } from '../../bridge/serve/hook-server.js';
import { ReloadingStack } from '../../bridge/serve/reloading-stack.js';
import { SessionNotices, sessionNoticesFile } from '../../bridge/session-notices.js';
import { serveEnding } from '../../bridge/serve/serve-lifetime.js';
import { batchedSink, serveLog, type ServeLogFormat, type ServeLogLevel } from '../../bridge/serve/serve-log.js';
import { loadServeToken, SERVE_TOKEN_ENV, serveTokenPath } from '../../bridge/serve/serve-token.js';
import { messageOf } from '../../core/internal/message-of.js';
import { guardAgainstOrphans } from '../../process/live-groups.js';
import { ENV_POLICY_FLAGS, ENV_POLICY_HELP, environmentOf, parseFlags, positionalsUpTo, PROJECT_FLAGS, TRUST_ALL_HELP, trustPolicyOf } from '../args.js';
import { ExitCode, UsageError, type Command } from '../command.js';
import type { CliIO } from '../io.js';
import { bridgeStackSource } from '../serve-source.js';

/**
 * The port `serve` listens on unless told otherwise, and the one `bridge --install claude --http` writes.
 *
 * @internal
 */
export const DEFAULT_SERVE_PORT = 7391;

/** A whole number in [min, max] for `flag`, or `fallback` when not given. */
function wholeNumber(value: string | undefined, flag: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) throw new UsageError(`${flag} takes a whole number from ${min} to ${max}, not ${JSON.stringify(value)}`);
  return Number(value);
}

function oneOf<T extends string>(value: string | undefined, flag: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}`);
  return value as T;
}

/** Runs until SIGTERM, SIGINT or SIGHUP, or until the process that started it is gone; then shuts down gracefully. */
export const serveCommand: Command = {
  name: 'serve',
  synopsis: 'serve [--port N] [--host H] [--project DIR] [--config FILE] [--log-format json|text] | serve --print-token',
  summary: 'serve the project’s hooks as an HTTP hook endpoint (Claude Code’s type: "http" hooks)',
  help: `Serves the hooks the bridge runs — the project's HOOK.md hooks (user and project) and the in-process hooks of
agent-hooks.config.* (or --config FILE) — over HTTP, so that an agent with HTTP hooks pays no process start per
call: POST /hooks/claude with Claude Code's hook input answers as 'agent-hooks bridge --from claude' would, in
JSON. GET /health answers {"status":"ok"} (no token needed). Write the entries with
'agent-hooks bridge --install claude --http'. The agents whose hooks are commands reach it through the line
'agent-hooks bridge --install AGENT --http' writes: curl to POST /bridge/AGENT, answered with what
'agent-hooks bridge --from AGENT' would print (its stdout, stderr and exit code, framed), and the command bridge
when no server answers.

Every hook request needs the header Authorization: Bearer <token>. The token is ${SERVE_TOKEN_ENV} when set in this
environment, else the one in the token file (generated on first use, mode 0600, beside the trust store:
${serveTokenPath({})}). Claude Code sends it from its own environment: export ${SERVE_TOKEN_ENV} where Claude
Code runs for the projects you serve (not in your shell profile: any project's http hook that lists the variable
in its allowedEnvVars can send it elsewhere), and list it in the entry's allowedEnvVars. A request without it gets
401, and nothing runs. A request whose Host is not the address listened on (421), or that comes from a web page
(an Origin header: 403), is refused before the token is looked at.

Options:
  --port N               the port (default ${DEFAULT_SERVE_PORT}; 0: any free one, logged)
  --host H               the address (default 127.0.0.1). Anything but loopback lets the network reach your
                         hooks: a warning is logged, and the token is all that guards them
  --project DIR          the project (default: the current directory)
  --hooks-dir DIR        another folder of HOOK.md hook folders (repeatable), as for bridge
${TRUST_ALL_HELP}
${ENV_POLICY_HELP}
  --config FILE          the module of in-process hooks, as for bridge
  --print-token          print the token (generating it if there is none) and exit
  --token-file FILE      where the token is kept (default: the file above)
  --max-body BYTES       the largest request body (default 16777216); a larger one gets 413
  --max-concurrent N     requests dispatched at once (default 64); more wait their turn
  --max-queued N         requests waiting for a turn (default 1024); one more gets 503
  --request-timeout S    seconds one request may take (default 55, under the 60 the installed entries give
                         Claude Code); then its hooks are stopped, their processes killed, and it gets 504
  --reload-interval MS   how often the hook folders, the config module and the trust store are checked for
                         changes, in ms (default 1000; 0: never), links followed to what they point to. A change
                         loads the hooks again, with the trust check: an edited project hook is skipped until it
                         is trusted again. The agent's user is told of the hooks skipped, once per session, in the
                         answers (systemMessage), in the words of 'agent-hooks bridge'
  --drain-timeout S      on shutdown, seconds async hooks get to finish (default 5)
  --log-format F         json (default: one JSON object per line on stderr) or text
  --log-level L          error, warn, info (default: one line per request) or debug

Answers: 200 with the agent's JSON ({} when the hooks have nothing to say, and for an event this version does not
know); 400 for a body that is not JSON or not a hook input; 401 without the token; 403 for a web page's request
(an Origin header); 404, 405; 413; 421 for a Host that is not the address listened on, and for another project's
request on an event that guards nothing; 500 when a hook threw; 503 when the queue is full, the hooks cannot be loaded, or the server is shutting down; 504 past
--request-timeout. Claude Code reads any status but 2xx as a failed hook, which lets the call go on unless the
entry says "onFailure": "block" — the entries --install --http writes say it on PreToolUse, PermissionRequest and
UserPromptSubmit, so a guard that cannot be asked refuses rather than allows.

One project only: a request whose hook input's cwd is not in --project (or is in a folder of it with a
.claude/settings.json of its own, or is missing, relative, or not a folder) runs no hook. On PreToolUse,
PermissionRequest and UserPromptSubmit it gets 200 with a refusal naming the reason, on the other events 421:
another project's session is never answered as "allow". Serve each project on its own port.

SIGTERM, SIGINT or SIGHUP, or the process that started it going away (npx killed, the terminal closed): stops
accepting connections, answers the requests in flight (10 s at most; then they are stopped and get 503), gives
async hooks --drain-timeout seconds, stops those still running with their process groups, and exits 0. It lives
as long as what started it: to keep it running, start it from a service manager (systemd, launchd, pm2).`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      ...PROJECT_FLAGS,
      ...ENV_POLICY_FLAGS,
      config: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'print-token': { type: 'boolean' },
      'token-file': { type: 'string' },
      'max-body': { type: 'string' },
      'max-concurrent': { type: 'string' },
      'max-queued': { type: 'string' },
      'request-timeout': { type: 'string' },
      'reload-interval': { type: 'string' },
      'drain-timeout': { type: 'string' },
      'log-format': { type: 'string' },
      'log-level': { type: 'string' },
    });
    positionalsUpTo(positionals, 0);
    const tokenFile = values['token-file'] === undefined ? serveTokenPath({ hostEnv: io.env }) : resolve(io.cwd, values['token-file']);
    if (values['print-token']) {
      try {
        io.out((await loadServeToken(tokenFile, io.env)).token);
        return ExitCode.ok;
      } catch (error) {
        io.err(`agent-hooks serve: ${messageOf(error)}`);
        return ExitCode.problems;
      }
    }
    const port = wholeNumber(values.port, '--port', DEFAULT_SERVE_PORT, 0, 65535);
    const host = values.host ?? '127.0.0.1';
    const maxBodyBytes = wholeNumber(values['max-body'], '--max-body', 16 * 1024 * 1024, 1);
    const maxConcurrent = wholeNumber(values['max-concurrent'], '--max-concurrent', 64, 1);
    const maxQueued = wholeNumber(values['max-queued'], '--max-queued', 1024, 0);
    const requestTimeoutMs = wholeNumber(values['request-timeout'], '--request-timeout', 55, 1) * 1000;
    const intervalMs = wholeNumber(values['reload-interval'], '--reload-interval', 1000, 0);
    const drainMs = wholeNumber(values['drain-timeout'], '--drain-timeout', 5, 0) * 1000;
    const log = serveLog(oneOf<ServeLogFormat>(values['log-format'], '--log-format', ['json', 'text'], 'json'), oneOf<ServeLogLevel>(values['log-level'], '--log-level', ['error', 'warn', 'info', 'debug'], 'info'), batchedSink((lines) => io.err(lines.trimEnd())));
    const projectDir = resolve(io.cwd, values.project ?? '.');
    // Requests are matched to the project by their cwd, which the agent may give with links resolved or not: both
    // sides are compared as real paths. The hooks load from the folder as named, as the command bridge loads them.
    let servedDir: string;
    try {
      servedDir = await fsPromises().realpath(projectDir);
      if (!(await fsPromises().stat(servedDir)).isDirectory()) throw new Error('not a folder');
    } catch (error) {
      log.write('error', `the project ${projectDir} is not a folder that can be served (${messageOf(error)}): name one with --project DIR`);
      return ExitCode.problems;
    }

    let token;
    try {
      token = await loadServeToken(tokenFile, io.env);
    } catch (error) {
      log.write('error', messageOf(error));
      return ExitCode.problems;
    }
    const source = bridgeStackSource({
      projectDir,
      hooksDirs: values['hooks-dir'] ?? [],
      hostEnv: io.env,
      environment: environmentOf(values),
      trust: trustPolicyOf(io, values['trust-all']),
      config: values.config,
    });
    const stacks = await ReloadingStack.start(source, { intervalMs, log });
    const unguard = guardAgainstOrphans();
    const ending = serveEnding();
    let server;
    try {
      server = await startHookServer({
        stack: () => (stacks.failure === undefined ? stacks.current : { failure: stacks.failure }),
        project: servedDir,
        served: () => stacks.served,
        // The user hears of the hooks a load skipped as from the command bridge: serve's own log is not in sight.
        notices: { of: (stack) => stacks.noticeOf(stack), sessions: new SessionNotices(sessionNoticesFile(io.env)) },
        token: token.token,
        host,
        port,
        maxBodyBytes,
        maxConcurrent,
        maxQueued,
        requestTimeoutMs,
        log,
      });
    } catch (error) {
      log.write('error', `cannot listen on ${host}:${port}: ${messageOf(error)}`);
      stacks.stop();
      ending.off();
      unguard();
      return ExitCode.problems;
    }
    if (!isLoopback(host)) {
      log.write('warn', `listening on ${host}, which is not a loopback address: anyone who can reach it and has the token can run your hooks; keep it to 127.0.0.1 unless you mean it`, { host });
    }
    log.write('info', 'listening', {
      pid: process.pid,
      url: server.url,
      hooks: `${server.url}/hooks/claude`,
      project: projectDir,
      token: token.source === 'env' ? `$${SERVE_TOKEN_ENV}` : token.file,
      ...(token.source === 'created' ? { tokenCreated: true } : {}),
    });
    const why = await ending.ended;
    ending.off();
    log.write('info', why === 'parent gone' ? 'the process that started the server is gone: shutting down' : `${why} received: shutting down`, server.load());
    stacks.stop();
    const report = await server.close({ drainMs });
    log.write('info', 'stopped', { ...report });
    unguard();
    return ExitCode.ok;
  },
};
