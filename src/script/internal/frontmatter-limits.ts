// Internal: not exported from the package.

/** The limits the spec sets, in one place so that the schema and the problem messages cannot disagree. */
export const HOOK_FRONTMATTER_LIMITS = Object.freeze({
  name: { min: 1, max: 64 },
  description: { min: 1, max: 1024 },
  timeout: { min: 100, max: 600_000, default: 30_000 },
  priority: { min: 0, max: 1000, default: 100 },
});
