/**
 * One run of an agent: the loop that fires every lifecycle event, in order.
 *
 * @module
 */
import { AgentState, AgentStep, CompactHookContext, ExecutionHookContext, FailureHookContext, HookError, PromptHookContext, SessionHookContext, StepHookContext, StopHookContext, ToolBatchHookContext, ToolExecution, type StopReason } from '../../core/index.js';
import { addUsage } from '../../core/internal/usage.js';
import { compactMessages } from '../compaction.js';
import { messageOf } from '../../core/internal/message-of.js';
import { stateFromJson } from '../internal/snapshot-codec.js';
import { type AgentConfig, type RunEnvironment, type RunInit, type ResumeInit, type RunStream, type ModelTurn, type RunOutcome, Halt, Interrupt } from './run-types.js';
import { RunSubagents } from './subagents.js';
import type { RunCore } from './run-core.js';
import { asHookFeedback } from '../../core/internal/hook-feedback.js';

/**
 * The run loop. One instance per `run()`: all mutable state of a run lives in it (see {@link RunCore}), so runs of one
 * agent never share it.
 */
export class Run extends RunSubagents {
  /** Fires SessionEnd for a session's final state; `close()` of a session calls it. */
  static async endSession(config: AgentConfig, env: RunEnvironment, state: AgentState, reason: string, durationMs?: number): Promise<void> {
    const run = new Run(config, env, { prompt: '', state, metadata: {}, signal: undefined });
    await run.dispatch('SessionEnd', () => SessionHookContext.onEnd({ state, reason, model: config.model.name, durationMs }), false);
  }

  /** Compacts a session's conversation on request (PreCompact and PostCompact with trigger `manual`). */
  static async compact(config: AgentConfig, env: RunEnvironment, state: AgentState, instructions: string | undefined): Promise<AgentState> {
    const run = new Run(config, env, { prompt: '', state, metadata: {}, signal: undefined });
    try {
      await run.maybeCompact('manual', instructions);
    } catch (error) {
      if (!(error instanceof Halt)) throw error;
      // A stop from a compaction hook outside a run has nothing to halt: the conversation stays as it was.
      return state;
    }
    return run.state;
  }

  /**
   * A run that goes on from `frame`, an interrupted run's (checked against this agent by the caller), with the
   * decisions for its pending requests.
   */
  static resumed(
    config: AgentConfig,
    env: RunEnvironment,
    resume: ResumeInit,
    options: { signal: AbortSignal | undefined; stream?: RunStream | undefined; keepStep?: RunInit['keepStep'] },
  ): Run {
    const { frame } = resume;
    return new Run(config, env, {
      prompt: frame.prompt,
      state: stateFromJson(frame.state),
      metadata: { ...frame.metadata },
      signal: options.signal,
      subagent: frame.subagent,
      stream: options.stream,
      resume,
      keepStep: options.keepStep,
    });
  }

  /** Runs to the end, or to an interruption. Resolves with the result, and the error when the run failed. */
  async execute(): Promise<RunOutcome> {
    let failure: { error: unknown } | undefined;
    try {
      try {
        await this.main();
      } catch (error) {
        // Interrupted: the run is not over, so nothing that ends it fires (Stop, ExecutionEnd); resuming goes on from here.
        if (error instanceof Interrupt) return { ...this.result(), status: 'interrupted', interrupted: this.interruption(error) };
        if (!(error instanceof Halt)) throw error;
        this.halted(error);
      }
      await this.afterTurn();
    } catch (error) {
      failure = { error };
      await this.failed(error);
    }
    this.ending = true;
    try {
      await this.dispatch('ExecutionEnd', () =>
        ExecutionHookContext.onEnd({
          state: this.state,
          metadata: this.metadata,
          prompt: this.prompt,
          status: this.status,
          reason: this.reason,
          durationMs: performance.now() - this.started,
        }),
      );
    } catch (error) {
      if (failure === undefined) {
        failure = { error };
        await this.failed(error);
      }
    }
    return { ...this.result(failure?.error), ...(failure ? { failure } : {}) };
  }

  protected async main(): Promise<void> {
    const resume = this.init.resume;
    const at = resume?.frame.at === undefined ? undefined : this.resumePoint(resume.frame);
    if (resume === undefined) {
      if (this.init.sessionStart) await this.dispatch('SessionStart', () => SessionHookContext.onStart({ state: this.state, metadata: this.metadata, source: 'startup', model: this.config.model.name, initialPrompt: this.prompt }));
      await this.dispatch('ExecutionStart', () => ExecutionHookContext.onStart({ state: this.state, metadata: this.metadata, prompt: this.prompt }));
      const submitted = await this.dispatch('UserPromptSubmit', () => PromptHookContext.onSubmit(this.prompt, this.ctxInit()));
      if (submitted.type === 'block') throw new Halt(submitted.reason ?? 'The prompt was rejected by a hook.', 'prompt_blocked');
      const prompt = submitted.context?.event === 'UserPromptSubmit' ? submitted.context.prompt : this.prompt;
      this.addMessage({ role: 'user', content: prompt });
    }

    const stream = this.init.stream;
    for (let index = at?.stepIndex ?? resume?.frame.nextStep ?? 0; ; index++) {
      this.signal?.throwIfAborted();
      let turn: ModelTurn;
      let executions: ToolExecution[];
      if (at !== undefined && index === at.stepIndex) {
        // The interrupted step: its model answer is in the conversation already, and its batch goes on at the call
        // that waited.
        turn = at.turn;
        executions = await this.runTools(turn, index, at);
      } else {
        stream?.emit({ type: 'step-start', stepIndex: index });
        await this.dispatch('BeforeStep', () => StepHookContext.beforeStep(index, this.ctxInit()));
        await this.maybeCompact('auto');
        try {
          turn = await this.callModel(index);
        } catch (error) {
          this.noteModelFailure(error);
          throw error;
        }
        const toolCalls = turn.response.toolCalls;
        this.text = turn.response.text;
        this.addMessage({ role: 'assistant', content: this.text, ...(toolCalls.length > 0 ? { toolCalls } : {}) });
        executions = await this.runTools(turn, index);
      }
      const { response, usage } = turn;
      const toolCalls = response.toolCalls;
      const step = new AgentStep({ index, text: this.text, toolCalls, executions, ...(usage ? { usage } : {}) });
      this.usage = addUsage(this.usage, usage);
      this.state = this.state.with({ steps: [...this.state.steps, step] });
      // Checked here, not in the dispatch: an awaited call per step is what an agent without these hooks would pay.
      if (toolCalls.length > 0 && this.wants('PostToolBatch')) await this.postToolBatch(step);
      await this.dispatch('AfterStep', () => StepHookContext.afterStep(step, this.ctxInit()));
      stream?.emit({ type: 'step-end', step });

      const stopReason: StopReason | undefined =
        this.rejectedStop !== undefined
          ? 'tool_rejected'
          : toolCalls.length === 0
            ? 'no_tool_calls'
            : index + 1 >= this.config.maxSteps
              ? 'max_steps'
              : undefined;
      if (stopReason === undefined || (await this.stopGate(stopReason, index + 1 >= this.config.maxSteps))) {
        await this.keepStep(index + 1);
        continue;
      }
      this.stopReason = stopReason;
      if (stopReason === 'tool_rejected') this.reason = this.rejectedStop;
      return;
    }
  }

  /**
   * The Stop (or SubagentStop) gate. Resolves true when a hook keeps the agent working — never past the step limit,
   * which stays a hard limit whatever the gate says.
   */
  protected async stopGate(stopReason: StopReason, atStepLimit: boolean): Promise<boolean> {
    const sub = this.init.subagent;
    // Made only when a hook or a listener wants the context.
    const init = () => ({
      state: this.state,
      metadata: this.metadata,
      stopReason,
      finalMessage: this.text,
      stopHookActive: this.stopBlocks > 0,
      continuationCount: this.stopBlocks,
      subagentName: sub?.name,
      subagentType: sub?.type,
      subagent: sub,
    });
    const event = sub ? 'SubagentStop' : 'Stop';
    const outcome = sub
      ? await this.dispatch('SubagentStop', () => StopHookContext.subagentStop(init()))
      : await this.dispatch('Stop', () => StopHookContext.stop(init()));
    if (outcome.type !== 'block') return false;
    const feedback = outcome.reason ?? 'A stop hook asked the agent to keep working.';
    if (atStepLimit) {
      this.warn('ignored-outcome', `A ${event} hook blocked at the step limit (${this.config.maxSteps}); the run ends: ${feedback}`, event);
      return false;
    }
    if (this.stopBlocks >= this.config.stopLoopLimit) {
      const reason = `Stop hooks kept the agent working ${this.stopBlocks} times in a row; ending the run anyway (last reason: ${feedback}).`;
      this.env.emitter.emit('stop:forced', { reason, blocks: this.stopBlocks + 1 });
      this.warn('stop-forced', reason, event);
      return false;
    }
    this.stopBlocks++;
    this.rejectedStop = undefined;
    this.addMessage(asHookFeedback({ role: 'user', content: feedback }));
    return true;
  }

  protected async afterTurn(): Promise<void> {
    const init = () => ({
      state: this.state,
      metadata: this.metadata,
      stopReason: this.stopReason ?? 'no_tool_calls',
      finalMessage: this.text,
      stopHookActive: this.stopBlocks > 0,
      continuationCount: this.stopBlocks,
    });
    for (const event of ['AfterStop', 'AfterAgent'] as const) {
      const outcome = await this.dispatch(event, () => new StopHookContext(event, init()), false);
      if (outcome.type === 'stop' && this.status !== 'stopped') this.halted(new Halt(outcome.reason ?? `Stopped by a ${event} hook.`, 'hook_stop'));
    }
  }

  protected async failed(error: unknown): Promise<void> {
    this.ending = true;
    this.status = 'failed';
    this.stopReason = undefined;
    this.reason = messageOf(error);
    if (this.modelFailure?.error === error) await this.stopFailure(error);
    try {
      const duringModelCall = this.modelFailure?.error === error;
      await this.dispatch('AgentFailed', () => FailureHookContext.onFailure(error, { ...this.ctxInit(), duringModelCall }));
    } catch (hookError) {
      // The run already failed; a failing AgentFailed hook must not replace the original error.
      this.warn('hook-error', `An AgentFailed hook failed too: ${messageOf(hookError)}`, 'AgentFailed');
    }
  }

  /**
   * Keeps an error the step's model call ended on for StopFailure — not a hook's, not a halt, not a cancellation — as
   * an API error ends the turn in Claude Code.
   */
  protected noteModelFailure(error: unknown): void {
    if (!(error instanceof Halt) && !HookError.isHookError(error) && this.signal?.aborted !== true) this.modelFailure = { error };
  }

  /**
   * StopFailure, in place of Stop, before AgentFailed. Claude Code ignores what its hooks answer: here a decision is
   * ignored with a warning (by `dispatch`), and so is context for a model the turn no longer calls.
   */
  protected async stopFailure(error: unknown): Promise<void> {
    try {
      const outcome = await this.dispatch(
        'StopFailure',
        () => FailureHookContext.onStopFailure(error, { state: this.state, metadata: this.metadata, finalMessage: this.text === '' ? undefined : this.text }),
        false,
      );
      if (outcome.additionalContext.length > 0) {
        this.warn('ignored-outcome', `A StopFailure hook added context for the model (${outcome.additionalContext.join(' ')}); the turn has ended on an error, so it was ignored.`, 'StopFailure');
      }
    } catch (hookError) {
      // A failing StopFailure hook must not replace the error the turn ended on.
      this.warn('hook-error', `A StopFailure hook failed: ${messageOf(hookError)}`, 'StopFailure');
    }
  }

  /** PostToolBatch, once every tool call of `step` has resolved: a block ends the run there, as Claude Code ends the turn. */
  protected async postToolBatch(step: AgentStep): Promise<void> {
    const batch = await this.dispatch('PostToolBatch', () => ToolBatchHookContext.afterBatch(step, this.ctxInit()));
    if (batch.type === 'block') throw new Halt(batch.reason ?? 'A PostToolBatch hook ended the run.', 'hook_stop');
  }

  protected halted(halt: Halt): void {
    this.status = 'stopped';
    this.stopReason = halt.stopReason;
    this.reason = halt.reason;
  }

  protected async maybeCompact(trigger: 'auto' | 'manual', instructions?: string): Promise<void> {
    const options = this.config.compaction;
    if (options === undefined || (trigger === 'auto' && this.state.messages.length <= options.maxMessages)) return;
    const before = this.state.messages;
    const pre = await this.dispatch('PreCompact', () =>
      CompactHookContext.before({ state: this.state, metadata: this.metadata, trigger, messagesBefore: before, customInstructions: instructions }),
    );
    const custom = pre.context?.event === 'PreCompact' ? pre.context.customInstructions : instructions;
    const after = await compactMessages(this.state.messages, options, { instructions: custom, signal: this.signal });
    this.state = this.state.withMessages(after);
    await this.dispatch('PostCompact', () =>
      CompactHookContext.after({ state: this.state, metadata: this.metadata, trigger, messagesBefore: before, messagesAfter: after, customInstructions: custom }),
    );
    // As in Claude Code, the compacted conversation starts again: SessionStart with source `compact`, so hooks that
    // put context in at the start (a branch, open tasks) put it back.
    await this.dispatch('SessionStart', () => SessionHookContext.onStart({ state: this.state, metadata: this.metadata, source: 'compact', model: this.config.model.name }));
  }

  protected childRun(config: AgentConfig, init: RunInit): Run {
    return new Run(config, this.env, init);
  }

  protected resumedChild(config: AgentConfig, resume: ResumeInit, options: { signal: AbortSignal | undefined; stream?: RunStream | undefined }): Run {
    return Run.resumed(config, this.env, resume, options);
  }
}
