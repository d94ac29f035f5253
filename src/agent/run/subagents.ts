/**
 * A run's subagents.
 *
 * @module
 */
import { AgentState, SubagentHookContext, ToolCall, ToolExecution } from '../../core/index.js';
import type { Subagent } from '../subagent.js';
import { type AgentConfig, type ResolvedSubagent, type RunInit, type ResumeInit, type ResumePoint, type RunStream, type RunOutcome, Interrupt, epochNow } from './run-types.js';
import { RunApprovals } from './approvals.js';

/** A run's subagents: their runs started, resumed, and their results or interruptions handed to the call. */
export abstract class RunSubagents extends RunApprovals {
  /** A new run of a subagent. */
  protected abstract childRun(config: AgentConfig, init: RunInit): { execute(): Promise<RunOutcome> };
  /** A subagent's interrupted run, going on. */
  protected abstract resumedChild(config: AgentConfig, resume: ResumeInit, options: { signal: AbortSignal | undefined; stream?: RunStream | undefined }): { execute(): Promise<RunOutcome> };

  /** SubagentStart, then the child's run. Returns the child's text, or the refusal. */
  protected async runSubagent(call: ToolCall, sub: ResolvedSubagent): Promise<string | ToolExecution> {
    const task = String(call.args['task'] ?? '');
    const start = await this.dispatch('SubagentStart', () =>
      SubagentHookContext.onStart({ state: this.state, metadata: this.metadata, name: sub.def.name, type: sub.def.type, task }),
    );
    if (start.type === 'block') return this.refuse(call, `Subagent refused by a hook: ${start.reason}`, 'hook');
    const finalTask = start.context?.event === 'SubagentStart' ? start.context.task : task;
    // Derived from the parent's id, so a subagent's id never collides with its parent's or a sibling's.
    const childId = `${this.state.agentId}/${sub.def.name}#${++this.childRuns}`;
    const child = this.childRun(sub.config, {
      prompt: finalTask,
      state: AgentState.create({
        agentId: childId,
        parentAgentId: this.state.agentId,
        sessionId: this.state.sessionId,
      }),
      metadata: {},
      signal: this.signal,
      subagent: { name: sub.def.name, type: sub.def.type },
      stream: this.subagentStream(sub.def.name, childId),
    });
    const startedAt = epochNow();
    return this.childResult(call, sub, childId, await child.execute(), startedAt);
  }

  /** A subagent's interrupted run, going on with the decisions this run was resumed with. */
  protected async resumeSubagent(call: ToolCall, sub: ResolvedSubagent, at: ResumePoint): Promise<string> {
    const frame = at.child!;
    const child = this.resumedChild(sub.config, { frame, decisions: this.init.resume!.decisions }, {
      signal: this.signal,
      stream: this.subagentStream(sub.def.name, frame.state.agentId),
    });
    return this.childResult(call, sub, frame.state.agentId, await child.execute(), at.startedAt ?? epochNow());
  }

  /** What a subagent's run gives its call: its text, or why it stopped; an interruption inside it interrupts this run. */
  protected childResult(call: ToolCall, sub: ResolvedSubagent, childId: string, outcome: RunOutcome, startedAt: number): string {
    const { failure, interrupted, ...result } = outcome;
    if (interrupted !== undefined) {
      const pending = interrupted.pending.map((p) => ({ ...p, subagentPath: [sub.def.name, ...p.subagentPath] }));
      throw new Interrupt({ phase: 'subagent', call, child: interrupted.frame, startedAt }, pending);
    }
    this.subagentStream(sub.def.name, childId)?.emit({ type: 'run-end', result });
    if (failure) throw failure.error;
    return result.status === 'stopped' ? `${result.text}${result.text ? '\n' : ''}(subagent stopped: ${result.reason})` : result.text;
  }

  /** A subagent's stream inside this run's: each of its events wrapped in a `subagent` event. */
  protected subagentStream(name: string, agentId: string): RunStream | undefined {
    const stream = this.init.stream;
    if (stream === undefined) return undefined;
    return { text: stream.text, emit: (event) => stream.emit({ type: 'subagent', name, agentId, event }) };
  }
}
