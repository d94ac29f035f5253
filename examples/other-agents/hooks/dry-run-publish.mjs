// A GitHub Copilot preToolUse hook: turns `npm publish` into a dry run through modifiedArgs.
let data = '';
for await (const chunk of process.stdin) data += chunk;
const { toolArgs } = JSON.parse(data);
const args = JSON.parse(toolArgs); // Copilot sends the arguments as a JSON string
if (/^npm publish\b/.test(args.command) && !args.command.includes('--dry-run')) {
  console.log(JSON.stringify({ permissionDecision: 'allow', modifiedArgs: { ...args, command: `${args.command} --dry-run` } }));
}
