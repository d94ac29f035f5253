/**
 * The agent runtime: AgentBuilder, the Agent loop, models, tools, subagents, compaction and approval.
 *
 * @module
 */
export * from './model.js';
export * from './scripted-model.js';
export * from './tool.js';
export * from './approval.js';
export * from './subagent.js';
export * from './compaction.js';
export * from './agent-events.js';
export * from './agent-stream.js';
export * from './hook-loader.js';
export * from './run-result.js';
export * from './run-snapshot.js';
export * from './checkpointer.js';
export * from './memory-checkpointer.js';
export * from './file-checkpointer.js';
export * from './checkpointer-error.js';
export * from './resume-error.js';
export * from './hook-error-policy.js';
export { DEFAULT_HOOK_TIMEOUT_MS } from './hook-timeout.js';
export { ToolRefusedError, type AgentConfig, type ResolvedSubagent } from './run/index.js';
export * from './session.js';
export * from './agent.js';
export * from './agent-builder.js';
export * from './adapters/state-processor-adapter.js';
export * from './adapters/continuation-criteria-adapter.js';
export * from './model-judge.js';
export * from './model-verifier.js';
