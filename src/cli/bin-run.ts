// What the CommonJS executable's body (bin-stage.ts, `dist/cli-stage.cjs`) loads when the bridge's first stage runs
// the one hook a call can run on, as one file of its own, `dist/cli-run.cjs`: the trust check, the process runner and
// what they need, which a call no hook can run on never parses. Listed like bin-lazy.ts (tsup.config.ts,
// `lazyFirstStage`).
export * as run from '../bridge/first-stage-run.js';
