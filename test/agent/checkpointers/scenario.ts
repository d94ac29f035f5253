/** The run the conformance suite interrupts: one deploy to production, which waits for approval. */
import type { Scenario } from '../interrupt-support.js';

export const DEPLOY_SCENARIO: Scenario = {
  steps: [[{ tool: 'status', args: { env: 'production' } }, { tool: 'deploy', args: { env: 'production' } }]],
  decisions: [{ kind: 'approve' }],
};

/** The deploys that ran, by the trace of the hooks (PostToolUse fires once per call that ran). */
export function toolsRun(trace: readonly string[]): string[] {
  return trace.filter((line) => line.startsWith('PostToolUse') && line.includes(' deploy ')).map((line) => line.split(' | ').slice(-1)[0]!);
}
