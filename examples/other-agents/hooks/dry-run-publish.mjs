// A GitHub Copilot preToolUse hook: turns `npm publish` into a dry run through modifiedArgs.
let data = '';
for await (const chunk of process.stdin) data += chunk;
const { toolArgs } = JSON.parse(data);
// Copilot CLI 1.0 sends the arguments as an object; its earlier versions sent a JSON string.
const args = typeof toolArgs === 'string' ? JSON.parse(toolArgs) : toolArgs;
if (/^npm publish\b/.test(args.command) && !args.command.includes('--dry-run')) {
  console.log(JSON.stringify({ permissionDecision: 'allow', modifiedArgs: { ...args, command: `${args.command} --dry-run` } }));
}
