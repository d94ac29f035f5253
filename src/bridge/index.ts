/**
 * The bridge: our hook stack answering as another agent's hook.
 *
 * @module
 */
export * from './bridge-answer.js';
