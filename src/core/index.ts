/**
 * The hook kernel: events, contexts, outcomes, the Hook contract, matchers and the stack. No I/O.
 *
 * @module
 */
export * from './events.js';
export * from './tool-call.js';
export * from './tool-vocabulary.js';
export * from './tool-execution.js';
export * from './message.js';
export * from './model-request.js';
export * from './model-response.js';
export * from './agent-step.js';
export * from './model-error-type.js';
export * from './agent-state.js';
export * from './context/hook-context.js';
export * from './context/tool-hook-context.js';
export * from './context/tool-batch-hook-context.js';
export * from './context/step-hook-context.js';
export * from './context/model-hook-context.js';
export * from './context/stop-hook-context.js';
export * from './context/execution-hook-context.js';
export * from './context/failure-hook-context.js';
export * from './context/session-hook-context.js';
export * from './context/prompt-hook-context.js';
export * from './context/subagent-hook-context.js';
export * from './context/compact-hook-context.js';
export * from './context/notification-hook-context.js';
export * from './context/any-hook-context.js';
export * from './outcome.js';
export * from './hook.js';
export * from './hook-scope.js';
export * from './hook-error.js';
export * from './hooks/callable-hook.js';
export * from './hooks/event-hook.js';
export * from './hooks/event-hooks.js';
export * from './hooks/parallel-hooks.js';
export * from './matchers/hook-matcher.js';
export * from './matchers/matcher-syntax-error.js';
export * from './matchers/match-input-limit.js';
export * from './matchers/tool-name-matcher.js';
export * from './matchers/input-pattern-matcher.js';
export * from './matchers/event-type-matcher.js';
export * from './matchers/composite-matcher.js';
export * from './matchers/callable-matcher.js';
export * from './matchers/matcher.js';
export * from './stack.js';
