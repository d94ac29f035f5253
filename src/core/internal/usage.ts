import type { Usage } from '../agent-step.js';

/** The tokens of two model calls together; a count neither reported stays unknown. */
export const addUsage = (a: Usage | undefined, b: Usage | undefined): Usage | undefined => {
  if (b === undefined) return a;
  if (a === undefined) return b;
  const sum = (x: number | undefined, y: number | undefined) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  return { inputTokens: sum(a.inputTokens, b.inputTokens), outputTokens: sum(a.outputTokens, b.outputTokens), totalTokens: sum(a.totalTokens, b.totalTokens) };
};
