/**
 * Text from hook files on a terminal: a hook's name, command, matcher or description is the repository's to choose,
 * and a carriage return or an escape sequence in it could rewrite what `trust` shows before the user says yes
 * (`curl x|sh #\r\x1b[2Knpm run lint` shows as `npm run lint`). Every control character is shown, not obeyed.
 *
 * @module
 * @internal
 */
import type { CliIO } from './io.js';

/** C0 controls, DEL, C1 controls, and the Unicode line separators and bidirectional overrides that reorder a line. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const IS_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\x1b': '\\x1b' };

/** How one control character is shown: `\r`, `\n`, `\t`, `\x1b`, `\x7f`, `\u009b`, `\u202e`. */
function shown(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code <= 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control character shown as an escape (`\r`, `\x1b`, `\u009b`): for one value from a hook file —
 * a name, a command, a matcher, a path — so that it is printed on one line, as it is. Newlines are shown too unless
 * `keepNewlines`.
 *
 * @internal
 */
export function escapeControls(text: string, keepNewlines = false): string {
  return text.replace(keepNewlines ? CONTROL_BUT_NEWLINE : CONTROL, shown);
}

/**
 * The colour sequences this command line writes itself (picocolors' bold, dim, red, green, yellow, cyan and their
 * ends): the only escape sequences a line may keep. None of them hides, moves or erases text.
 */
// eslint-disable-next-line no-control-regex
const OUR_COLOURS = /\x1b\[(?:1|2|22|31|32|33|36|39)m/y;

/**
 * A whole line of human output made safe for a terminal: every control character shown as an escape, except the
 * newlines between lines and the colour sequences of {@link OUR_COLOURS}. The net under everything a command prints
 * for a person; values from hook files are also escaped where they are put in a line ({@link escapeControls}), so
 * that a newline in one cannot fake a line either.
 *
 * @internal
 */
export function terminalSafe(text: string): string {
  let out = '';
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\n' || !IS_CONTROL.test(char)) continue;
    if (char === '\x1b') {
      OUR_COLOURS.lastIndex = i;
      const colour = OUR_COLOURS.exec(text);
      if (colour !== null) {
        i += colour[0].length - 1;
        continue;
      }
    }
    out += text.slice(at, i) + shown(char);
    at = i + 1;
  }
  return at === 0 ? text : out + text.slice(at);
}

/**
 * `io` with both output streams passed through {@link terminalSafe}: what every command that prints for a person
 * gets. JSON output is unchanged by it, since `printJson` writes every control character as a JSON escape.
 *
 * @internal
 */
export function humanIO(io: CliIO): CliIO {
  return { ...io, out: (text) => io.out(terminalSafe(text)), err: (text) => io.err(terminalSafe(text)) };
}

/**
 * `JSON.stringify`'s text with the characters it leaves raw (DEL, C1 controls, line separators, bidirectional
 * overrides) written as `\uXXXX` escapes: the same JSON value, and nothing in it a terminal obeys.
 *
 * @internal
 */
export function escapeJsonControls(json: string): string {
  // eslint-disable-next-line no-control-regex
  return json.replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
