/**
 * Trust: a project's hooks run only once the user has trusted them, and again after each change.
 *
 * @module
 */
export * from './trust-fingerprint.js';
export * from './trust-store.js';
export * from './trust-policy.js';
