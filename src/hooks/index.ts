/**
 * Built-in hooks: ready-made Hook classes for the guards, limits and records most agents need.
 *
 * @module
 */
export * from './limit-behaviour.js';
export * from './dangerous-command-hook.js';
export * from './protected-paths-hook.js';
export * from './require-approval-hook.js';
export * from './tool-call-limit-hook.js';
export * from './rate-limit-hook.js';
export * from './audit-log-hook.js';
export * from './execution-timing-hook.js';
