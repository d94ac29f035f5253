/**
 * A model as the judge of Claude Code's prompt hooks.
 *
 * @module
 */
import type { JudgeFn } from '../config/config-source.js';
import type { Model } from './model.js';

const JUDGE_SYSTEM =
  'You judge one event of an AI agent against the rule you are given. Answer with a single JSON object and nothing else.';

/** Asks `model` one question, with no tools, and returns its text: the judge `type: "prompt"` hooks need. */
export function modelJudge(model: Model): JudgeFn {
  return async (prompt, signal) => {
    const response = await model.generate({
      system: JUDGE_SYSTEM,
      messages: [{ role: 'user', content: prompt }],
      tools: [],
      signal,
    });
    return response.text ?? '';
  };
}
