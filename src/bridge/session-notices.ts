/**
 * What the bridge has already told the user, per agent session. The agent starts the bridge afresh for every hook
 * call, so telling something "once per session" needs a file: a notice repeated on every tool call is noise the user
 * learns to ignore.
 *
 * @module
 */
import { nodeFs } from '../core/internal/node-fs.js';
import { dirname, join } from 'node:path';
import type { AnyHookContext } from '../core/index.js';
import { agentHooksCacheDir } from '../script/internal/cache-dir.js';
import { sha256Hex } from '../core/internal/sha256.js';

const { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = nodeFs;

/** The file's shape; `format` changes when the shape does, and a file of another format is started afresh. */
interface NoticesFile {
  readonly format: number;
  /** Per session: a digest of the notice given, and when (epoch milliseconds). */
  readonly sessions: Record<string, { readonly notice: string; readonly at: number }>;
}

const FORMAT = 1;

/**
 * The file of notices given: `bridge-notices.json` in the user's cache folder (`AGENT_HOOKS_CACHE_DIR`,
 * `XDG_CACHE_HOME/agent-hooks`, `~/.cache/agent-hooks`); `undefined` when `AGENT_HOOKS_CACHE_DIR=off`.
 */
export function sessionNoticesFile(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const dir = agentHooksCacheDir(env, platform);
  return dir === undefined ? undefined : join(dir, 'bridge-notices.json');
}

/**
 * Remembers which notice was given in which agent session, so that the bridge gives each one once per session.
 * Every failure leans towards telling again: without a file (the cache is off), without a session id, or when the
 * file cannot be read or written, a notice is always due — said on every call rather than never.
 */
export class SessionNotices {
  /**
   * Past this many sessions the oldest are forgotten: the file is read on every hook call, and an old session
   * that comes back is only told once more.
   */
  static readonly MAX_SESSIONS = 200;

  /**
   * @param file - where the notices are kept (see {@link sessionNoticesFile}); `undefined` keeps none.
   * @param now - the clock, in epoch milliseconds.
   */
  constructor(
    readonly file: string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether `notice` is still to be given in `session`: not given there yet, or given with other words (what it
   * names changed since, e.g. another hook was edited).
   */
  due(session: string | undefined, notice: string): boolean {
    if (this.file === undefined || session === undefined || session === '') return true;
    return this.read().sessions[session]?.notice !== digest(notice);
  }

  /**
   * Records that `notice` was given in `session`, merged with what other bridge processes recorded meanwhile, through
   * a temporary file and a rename so that a reader never sees half a file. Never throws: a file that cannot be
   * written means the notice is given again next time, which is the safe side.
   */
  given(session: string | undefined, notice: string): void {
    if (this.file === undefined || session === undefined || session === '') return;
    const temp = `${this.file}.${process.pid}.${this.now()}.tmp`;
    try {
      const sessions = { ...this.read().sessions, [session]: { notice: digest(notice), at: this.now() } };
      const kept = Object.entries(sessions)
        .sort(([, a], [, b]) => b.at - a.at)
        .slice(0, SessionNotices.MAX_SESSIONS);
      const body: NoticesFile = { format: FORMAT, sessions: Object.fromEntries(kept) };
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(temp, `${JSON.stringify(body)}\n`, { mode: 0o600 });
      renameSync(temp, this.file);
    } catch {
      try {
        rmSync(temp, { force: true });
      } catch {
        // Nothing more to do: a stray temporary file is harmless.
      }
    }
  }

  /** The file as it is now; missing, unreadable, corrupt or of another format, it is empty. */
  private read(): NoticesFile {
    const empty: NoticesFile = { format: FORMAT, sessions: {} };
    try {
      const parsed = JSON.parse(readFileSync(this.file!, 'utf8')) as Partial<NoticesFile> | null;
      if (parsed === null || typeof parsed !== 'object' || parsed.format !== FORMAT) return empty;
      if (parsed.sessions === null || typeof parsed.sessions !== 'object') return empty;
      const valid = Object.entries(parsed.sessions).filter(
        ([, entry]) => entry !== null && typeof entry === 'object' && typeof entry.notice === 'string' && typeof entry.at === 'number',
      );
      return { format: FORMAT, sessions: Object.fromEntries(valid) };
    } catch {
      return empty;
    }
  }
}

/** A notice's words in a few bytes: the file needs to tell notices apart, not to hold them. */
const digest = (notice: string): string => sha256Hex(notice).slice(0, 16);

/**
 * A notice given once per agent session, as `runBridge` takes it: {@link SessionNoticeTurn.notice} is its `notice`
 * option, and {@link SessionNoticeTurn.given} records, from its result, that the answer carried it.
 */
export interface SessionNoticeTurn {
  /** `runBridge`'s `notice`: the notice while it is due in the call's session; absent when there is none. */
  readonly notice: ((ctx: AnyHookContext) => string | undefined) | undefined;
  /** Records the notice as given in the session of `result`, when the answer carried it (`result.notice`). */
  given(result: { readonly ctx?: AnyHookContext | undefined; readonly notice?: string | undefined }): void;
}

/**
 * How `agent`'s call gives `notice` once per session of `notices` (sessions are `agent:session id`): the command
 * bridge and `agent-hooks serve` both give theirs this way, from the same file, so that a session told by one is not
 * told the same again by the other.
 */
export function noticeOncePerSession(notices: SessionNotices, agent: string, notice: string | undefined): SessionNoticeTurn {
  const session = (ctx: AnyHookContext): string | undefined => (ctx.state.sessionId === undefined ? undefined : `${agent}:${ctx.state.sessionId}`);
  return {
    notice: notice === undefined ? undefined : (ctx) => (notices.due(session(ctx), notice) ? notice : undefined),
    given(result) {
      if (notice !== undefined && result.notice !== undefined && result.ctx !== undefined) notices.given(session(result.ctx), notice);
    },
  };
}
