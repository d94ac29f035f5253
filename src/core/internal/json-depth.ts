// Internal: not exported from the package.

/**
 * How deeply objects and arrays may nest in a value that a hook is sent, a matcher tests or a fingerprint hashes.
 * `JSON.stringify` and every walk over a value go one call deeper per level, so a tool input nested a few thousand
 * levels deep overflows the stack wherever it is handled; real tool inputs nest a handful of levels, and 256 stays far
 * below what the stack takes even when the serialiser is called from deep inside a chain of hooks.
 */
export const MAX_JSON_DEPTH = 256;

interface Frame {
  readonly node: object;
  readonly children: readonly unknown[];
  next: number;
  height: number;
}

// Byte buffers serialise as a flat list of numbers: nothing in them nests.
const isLeaf = (value: unknown): boolean => value === null || typeof value !== 'object' || ArrayBuffer.isView(value);

/**
 * Whether `value` nests objects and arrays more than `limit` levels deep (the value itself is level 1), or holds a
 * cycle, which nests without end. It walks with a stack of its own rather than recursing, so no depth can overflow
 * it, and it walks an object reached along several paths once, so shared references cost no more than a tree.
 */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  if (isLeaf(value)) return false;
  if (limit < 1) return true;
  // The height of every subtree walked to its end: 1 for an object holding no object.
  const heights = new Map<object, number>();
  const onPath = new Set<object>();
  const stack: Frame[] = [];
  const enter = (node: object): void => {
    onPath.add(node);
    stack.push({ node, children: Array.isArray(node) ? node : Object.values(node), next: 0, height: 1 });
  };
  enter(value as object);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next < top.children.length) {
      const child = top.children[top.next++];
      if (isLeaf(child)) continue;
      if (onPath.has(child as object)) return true;
      const known = heights.get(child as object);
      if (known !== undefined) {
        if (stack.length + known > limit) return true;
        top.height = Math.max(top.height, known + 1);
        continue;
      }
      if (stack.length + 1 > limit) return true;
      enter(child as object);
      continue;
    }
    stack.pop();
    onPath.delete(top.node);
    heights.set(top.node, top.height);
    const parent = stack[stack.length - 1];
    if (parent !== undefined) parent.height = Math.max(parent.height, top.height + 1);
  }
  return false;
}

/** Why `value` cannot be turned into JSON safely: too deep, a cycle. `undefined` when it can be. */
export function jsonDepthProblem(value: unknown, limit: number = MAX_JSON_DEPTH): string | undefined {
  return nestsDeeperThan(value, limit) ? `it nests objects or arrays more than ${limit} levels deep, or in a cycle` : undefined;
}

/**
 * `JSON.stringify(value)`, or `undefined` where that cannot be done safely or at all: nesting past `limit`, a cycle, a
 * BigInt, a throwing `toJSON`. Callers decide what "cannot be serialised" means for them; it must never mean "allow".
 */
export function boundedStringify(value: unknown, limit: number = MAX_JSON_DEPTH): string | undefined {
  if (nestsDeeperThan(value, limit)) return undefined;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
