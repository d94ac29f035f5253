/**
 * The bearer token `agent-hooks serve` asks every hook request for: generated on first use and kept beside the trust
 * store, with the same care (a file of mode 0600 in a folder of mode 0700, written by exclusive create).
 *
 * @module
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { fsPromises } from '../../core/internal/node-fs.js';
import { dirname, join } from 'node:path';
import { trustStorePath, type TrustStoreLocation } from '../../script/trust/trust-store.js';

/**
 * The environment variable the agent's header refers to (`Authorization: Bearer $AGENT_HOOKS_TOKEN`, listed in the
 * hook's `allowedEnvVars`). Set in the server's own environment, it is the token, and no file is read or written.
 *
 * @internal
 */
export const SERVE_TOKEN_ENV = 'AGENT_HOOKS_TOKEN';

/** The fewest characters a token given in {@link SERVE_TOKEN_ENV} may have. */
const MIN_TOKEN_LENGTH = 32;

/**
 * The token's file: `serve-token` in the trust store's folder (`$XDG_CONFIG_HOME/agent-hooks/`, else
 * `~/.config/agent-hooks/`).
 *
 * @internal
 */
export function serveTokenPath(location: TrustStoreLocation = {}): string {
  return join(dirname(trustStorePath(location)), 'serve-token');
}

/**
 * Where the server's token came from.
 *
 * @internal
 */
export interface ServeToken {
  /** The token. */
  readonly token: string;
  /** `env` ({@link SERVE_TOKEN_ENV}), `file` (read), or `created` (generated now). */
  readonly source: 'env' | 'file' | 'created';
  /** The file, unless the token came from the environment. */
  readonly file?: string | undefined;
}

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/**
 * The server's token: {@link SERVE_TOKEN_ENV} from `env` when set, else the one in `file`, else a new one (32 random
 * bytes, base64url) written there by exclusive create, mode 0600, in a folder made with mode 0700. A file that others
 * may read (a group or world bit set) is refused: the token in it must be taken as known.
 *
 * @throws Error when the variable holds a token too short to be safe, or the file is readable by others or empty.
 * @internal
 */
export async function loadServeToken(file: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<ServeToken> {
  const given = env[SERVE_TOKEN_ENV];
  if (given !== undefined && given !== '') {
    if (given.trim().length < MIN_TOKEN_LENGTH) throw new Error(`${SERVE_TOKEN_ENV} holds a token of ${given.trim().length} characters; use at least ${MIN_TOKEN_LENGTH} (or unset it, and a random one is generated).`);
    return { token: given.trim(), source: 'env' };
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const info = await fsPromises().stat(file);
      if ((info.mode & 0o077) !== 0) {
        throw new Error(`${file} can be read by other users (mode ${(info.mode & 0o777).toString(8)}), so its token must be taken as known: delete it, and a new one is generated.`);
      }
      const token = (await fsPromises().readFile(file, 'utf8')).trim();
      if (token === '') throw new Error(`${file} is empty: delete it, and a new token is generated.`);
      return { token, source: 'file', file };
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw error;
    }
    await fsPromises().mkdir(dirname(file), { recursive: true, mode: 0o700 });
    const token = randomBytes(32).toString('base64url');
    let handle;
    try {
      handle = await fsPromises().open(file, 'wx', 0o600);
    } catch (error) {
      // Another server created it meanwhile: read that one.
      if (codeOf(error) === 'EEXIST') continue;
      throw error;
    }
    try {
      await handle.writeFile(`${token}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsPromises().chmod(file, 0o600);
    return { token, source: 'created', file };
  }
  throw new Error(`${file} could not be read or created.`);
}

/**
 * Whether the `Authorization` header holds `Bearer <token>`, compared in constant time.
 *
 * @internal
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (match === null) return false;
  const given = Buffer.from(match[1]!);
  const wanted = Buffer.from(token);
  // timingSafeEqual needs equal lengths; comparing against itself keeps the time independent of the guess.
  return given.length === wanted.length ? timingSafeEqual(given, wanted) : (timingSafeEqual(wanted, wanted), false);
}
