/**
 * The ReDoS checker's verdicts, kept on disk between processes: the bridge starts a process per agent hook call, and
 * checking one pattern that is not simple costs it some 600 ms, every call, without this file.
 *
 * @module
 */
import { nodeFs } from '../../core/internal/node-fs.js';
import { dirname, join } from 'node:path';
import { agentHooksCacheDir } from './cache-dir.js';
import type { RegexVerdict } from './regex-safety.js';

const { mkdirSync, readFileSync, renameSync, writeFileSync } = nodeFs;

interface CacheFile {
  readonly format: string;
  readonly verdicts: Record<string, RegexVerdict>;
}

/** Past this many patterns, the oldest are dropped: hooks' matchers are few, and the file is read on every start. */
const MAX_ENTRIES = 2000;

/**
 * The cache file: `regex-verdicts.json` in {@link agentHooksCacheDir}; `undefined` when the cache is off
 * (`AGENT_HOOKS_CACHE_DIR=off`).
 */
export function verdictCacheFile(
  env: Readonly<Record<string, string | undefined>> = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const dir = agentHooksCacheDir(env, platform);
  return dir === undefined ? undefined : join(dir, 'regex-verdicts.json');
}

/**
 * The verdicts stored in `file` under `format` (the checker's version and what it accepts: verdicts made under other
 * rules are not reused). A missing, unreadable or corrupt file is an empty cache; it is replaced on the next write.
 */
export function readVerdicts(file: string, format: string): Map<string, RegexVerdict> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CacheFile> | null;
    if (parsed === null || parsed.format !== format || typeof parsed.verdicts !== 'object' || parsed.verdicts === null) return new Map();
    return new Map(Object.entries(parsed.verdicts).filter(([, verdict]) => isVerdict(verdict)));
  } catch {
    return new Map();
  }
}

/**
 * Adds one verdict to `file`, merged with what is there now (another process may have written since this one read),
 * through a temporary file and a rename so that a reader never sees half a file. Failing to write (a read-only home,
 * a full disk) costs the next process a check, nothing more: it is ignored.
 */
export function storeVerdict(file: string, format: string, key: string, verdict: RegexVerdict): void {
  try {
    const verdicts = readVerdicts(file, format);
    verdicts.delete(key);
    verdicts.set(key, verdict);
    const kept = [...verdicts].slice(-MAX_ENTRIES);
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    const body: CacheFile = { format, verdicts: Object.fromEntries(kept) };
    writeFileSync(temp, `${JSON.stringify(body)}\n`);
    renameSync(temp, file);
  } catch {
    // See above: a cache that cannot be written is only slower.
  }
}

function isVerdict(value: unknown): value is RegexVerdict {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  if (v['safe'] === true) return v['by'] === 'simple' || v['by'] === 'checked' || v['by'] === 'undecided';
  return v['safe'] === false && (v['complexity'] === 'exponential' || v['complexity'] === 'polynomial') && (v['by'] === 'checked' || v['by'] === 'shape' || v['by'] === 'undecided');
}
