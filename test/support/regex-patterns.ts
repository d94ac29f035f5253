/** Known-bad and known-good matcher regexes, shared by the ReDoS tests. */

/** Catastrophic patterns, each with how its time grows: what the checker must refuse. */
export const UNSAFE_PATTERNS: readonly [pattern: string, complexity: 'exponential' | 'polynomial'][] = [
  ['(a+)+$', 'exponential'],
  ['(a|a)*b', 'exponential'],
  ['(\\w+\\s?)*$', 'exponential'],
  ['(a*)*b', 'exponential'],
  ['^(a|aa)+$', 'exponential'],
  ['(x+x+)+y', 'exponential'],
  ['(\\d+|\\w+)*!', 'exponential'],
  ['.*.*=.*', 'polynomial'],
  ['a*a*a*a*b', 'polynomial'],
  ['\\s*\\s*\\s*x', 'polynomial'],
  ['^(\\w*)(\\w*)(\\w*)$', 'polynomial'],
];

/** Everyday patterns, two of them quadratic (accepted: the input bound caps them). */
export const SAFE_PATTERNS: readonly string[] = [
  'Shell',
  'rm -rf /|mkfs',
  '\\.py$',
  '^bash$',
  'Write|Edit',
  '^mcp__.*',
  'Edit.*',
  'rm\\s+-rf',
  '^(?:Bash)$',
  '^(read|write)_.+$',
  '\\b(password|secret|token)\\b',
  '(^|/)\\.git/',
  'https?://[^\\s]+',
  'DROP\\s+TABLE',
  '\\s+$',
  '(curl|wget)[^|]*\\|\\s*(ba)?sh',
];

