/**
 * How a HOOK.md matcher regex is read.
 *
 * @module
 */
import { MatcherSyntaxError } from '../core/index.js';

/**
 * Compiles a HOOK.md `matcher.tool` or `matcher.pattern`: the whole string is the regex source, with no flags and no
 * anchors, as in the spec's examples (`Shell`, `rm -rf /|mkfs`, `\.py$`). The builder's `/source/flags` form is
 * deliberately not recognised here: a path pattern such as `/etc/` would silently lose its slashes. Validation and the
 * runner both compile through this function so that what discovery accepts is exactly what runs.
 *
 * @throws {@link MatcherSyntaxError} naming the pattern and the engine's complaint.
 */
export function compileManifestRegex(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MatcherSyntaxError(source, `${reason}. Escape special characters with \\ to match them literally.`);
  }
}
