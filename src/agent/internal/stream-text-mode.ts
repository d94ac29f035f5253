import type { StreamOptions, StreamTextMode } from '../agent-stream.js';

/** The text mode of a stream's options, checked: a mistyped mode is an error, not a silent default. */
export function streamTextMode(options: StreamOptions): StreamTextMode {
  const text = options.text ?? 'checked';
  if (text !== 'checked' && text !== 'live') throw new TypeError(`stream() takes text: 'checked' or 'live', got ${JSON.stringify(text)}.`);
  return text;
}
