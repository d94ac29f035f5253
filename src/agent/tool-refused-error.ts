/**
 * The error of a tool call that was refused.
 *
 * @module
 */

/** A refused tool call: what PostToolUse-style consumers see as the execution's error. */
export class ToolRefusedError extends Error {
  /** Always `'ToolRefusedError'`. */
  override readonly name = 'ToolRefusedError';
  /** Who refused it. */
  readonly by: 'hook' | 'permission' | 'approver';

  constructor(message: string, by: 'hook' | 'permission' | 'approver') {
    super(message);
    this.by = by;
  }
}
