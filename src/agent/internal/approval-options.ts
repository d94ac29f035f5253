// Internal: not exported from the package.
/**
 * Reads the options of `withApprover` and `withApprovalInterrupts`.
 *
 * @module
 */
import type { ApprovalOptions } from '../approval.js';

/** Whether `options` ask for whole batches; throws on anything that is not an {@link ApprovalOptions}. */
export function batchOption(options: ApprovalOptions, method: string): boolean {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new TypeError(`${method}() takes its options as an object, e.g. { batch: true }.`);
  const unknown = Object.keys(options).filter((k) => k !== 'batch');
  if (unknown.length > 0) throw new TypeError(`${method}() has no option ${unknown.map((k) => `'${k}'`).join(', ')}; its option is batch.`);
  if (options.batch !== undefined && typeof options.batch !== 'boolean') throw new TypeError(`${method}(): batch must be true or false, got ${typeof options.batch}.`);
  return options.batch === true;
}
