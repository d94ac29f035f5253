/**
 * One run of an agent, in its concerns: the loop, the model calls, tool execution, approvals and subagents.
 *
 * @module
 */
export { Run } from './loop.js';
export type { AgentConfig, ResolvedSubagent, RunEnvironment, RunInit, ResumeInit, RunInterruption, RunStream, RunOutcome } from './run-types.js';
export { ToolRefusedError } from '../tool-refused-error.js';
