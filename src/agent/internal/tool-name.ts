// Internal: not exported from the package.

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Throws unless `name` can be called by a model: tools and subagents share one namespace and one rule. */
export function checkToolName(kind: 'tool' | 'subagent', name: unknown): asserts name is string {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new TypeError(`A ${kind} name must be 1–128 letters, digits, '_', '-' or '.', got ${JSON.stringify(name)}.`);
  }
}
