/**
 * A deterministic model for demos and tests: it replays a script.
 *
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Model, ModelRequest, ModelResponse, ModelStreamPart } from './model.js';

/** One scripted step: a plain string is a text answer with no tool call. */
export type ScriptedStep = string | ModelResponse;

/** A script written as a function of the request and the step's 0-based number (across every run of the model). */
export type ScriptFn = (request: ModelRequest, call: number) => ScriptedStep | Promise<ScriptedStep>;

/** Options of a {@link ScriptedModel}: how it streams. */
export interface ScriptedModelOptions {
  /**
   * How `stream` cuts a step's text: into pieces of this many characters, or — by default — into words, each with the
   * white space after it.
   */
  readonly chunkSize?: number | undefined;
  /** A pause before each streamed piece, in milliseconds (default 0): to watch a stream, or cancel one mid-way. */
  readonly delayMs?: number | undefined;
}

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
 *
 * It streams too (`agent.stream()` calls {@link ScriptedModel.stream}): a step's text comes word by word (or in
 * pieces of `chunkSize` characters, `delayMs` apart), then its tool calls, then its usage.
 */
export class ScriptedModel implements Model {
  /** Always `'scripted'`. */
  readonly name = 'scripted';
  /** Every request the model received, in order. */
  readonly requests: ModelRequest[] = [];
  private readonly script: readonly ScriptedStep[] | ScriptFn;
  private readonly chunkSize: number | undefined;
  private readonly delayMs: number;
  private calls = 0;

  constructor(script: readonly ScriptedStep[] | ScriptFn, options: ScriptedModelOptions = {}) {
    if (!Array.isArray(script) && typeof script !== 'function') {
      throw new TypeError('ScriptedModel takes a list of steps or a (request, call) => step function.');
    }
    const { chunkSize, delayMs = 0 } = options;
    if (chunkSize !== undefined && !(Number.isInteger(chunkSize) && chunkSize > 0)) {
      throw new TypeError(`ScriptedModel's chunkSize must be a positive integer, got ${String(chunkSize)}.`);
    }
    if (!(Number.isFinite(delayMs) && delayMs >= 0)) throw new TypeError(`ScriptedModel's delayMs must be a number ≥ 0, got ${String(delayMs)}.`);
    this.script = typeof script === 'function' ? script : Object.freeze([...script]);
    this.chunkSize = chunkSize;
    this.delayMs = delayMs;
  }

  /** How many steps have been played. */
  get callCount(): number {
    return this.calls;
  }

  /** Plays the next step. */
  async generate(request: ModelRequest): Promise<ModelResponse> {
    return this.next(request);
  }

  /** Plays the next step as a stream: its text in pieces, then its tool calls, then its usage. */
  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamPart> {
    const step = await this.next(request);
    for (const text of this.pieces(step.text ?? '')) {
      if (this.delayMs > 0) await sleep(this.delayMs, undefined, request.signal ? { signal: request.signal } : undefined);
      yield { type: 'text-delta', text };
    }
    for (const call of step.toolCalls ?? []) yield { type: 'tool-call', toolCall: call };
    yield { type: 'finish', usage: step.usage };
  }

  private pieces(text: string): string[] {
    if (text === '') return [];
    const size = this.chunkSize;
    if (size === undefined) return text.match(/\s*\S+\s*/g) ?? [text];
    const out: string[] = [];
    for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
    return out;
  }

  private async next(request: ModelRequest): Promise<ModelResponse> {
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
