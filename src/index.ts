/**
 * agent-hooks — intercept an AI agent's lifecycle with one mechanism: in-process callbacks, reusable Hook classes and
 * script hooks, all middlewares of one priority-sorted {@link HookStack}.
 *
 * @packageDocumentation
 */
export * from './core/index.js';
export * from './agent/index.js';
export * from './script/index.js';
export * from './config/index.js';
export * from './agents/index.js';
export * from './bridge/index.js';
export * from './hooks/index.js';
