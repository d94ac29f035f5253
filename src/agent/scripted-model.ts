/**
 * A deterministic model for demos and tests: it replays a script.
 *
 * @module
 */
import type { Model, ModelRequest, ModelResponse } from './model.js';

/** One scripted step: a plain string is a text answer with no tool call. */
export type ScriptedStep = string | ModelResponse;

/** A script written as a function of the request and the step's 0-based number (across every run of the model). */
export type ScriptFn = (request: ModelRequest, call: number) => ScriptedStep | Promise<ScriptedStep>;

/**
 * A model that replays a list of steps, or answers with a function of the conversation. It records every request,
 * so a test can check what the model was shown.
 *
 * ```ts
 * const model = new ScriptedModel([
 *   { text: 'Listing files', toolCalls: [{ name: 'bash', args: { command: 'ls' } }] },
 *   'Done.',
 * ]);
 * ```
 *
 * A list is consumed once, across runs; running past its end throws (the run fails with AgentFailed), so a test
 * notices an unexpected extra step. Give a function to script an agent used by concurrent runs.
 */
export class ScriptedModel implements Model {
  /** Always `'scripted'`. */
  readonly name = 'scripted';
  /** Every request the model received, in order. */
  readonly requests: ModelRequest[] = [];
  private readonly script: readonly ScriptedStep[] | ScriptFn;
  private calls = 0;

  constructor(script: readonly ScriptedStep[] | ScriptFn) {
    if (!Array.isArray(script) && typeof script !== 'function') {
      throw new TypeError('ScriptedModel takes a list of steps or a (request, call) => step function.');
    }
    this.script = typeof script === 'function' ? script : Object.freeze([...script]);
  }

  /** How many steps have been played. */
  get callCount(): number {
    return this.calls;
  }

  /** Plays the next step. */
  async generate(request: ModelRequest): Promise<ModelResponse> {
    const call = this.calls++;
    this.requests.push(request);
    const step = typeof this.script === 'function' ? await this.script(request, call) : this.script[call];
    if (step === undefined) {
      const count = (this.script as readonly ScriptedStep[]).length;
      throw new Error(`ScriptedModel has no step ${call + 1}: its script has ${count}. Add a step, or end the run sooner.`);
    }
    return typeof step === 'string' ? { text: step } : step;
  }
}
