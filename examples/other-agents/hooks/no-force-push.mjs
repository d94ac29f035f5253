// A Claude Code PreToolUse hook: denies `git push --force` through hookSpecificOutput.
let data = '';
for await (const chunk of process.stdin) data += chunk;
const input = JSON.parse(data);
if (/git push .*(--force|-f)\b/.test(input.tool_input?.command ?? '')) {
  console.log(
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'Force-pushing is not allowed; push a new commit instead.',
      },
    }),
  );
}
