// node: a PostToolUse block, whose reason goes to the model beside the tool's kept output.
let data = '';
process.stdin.on('data', (c) => (data += c));
process.stdin.on('end', () => {
  const input = JSON.parse(data);
  if (String(input.tool_input?.command ?? '').includes('echo kept-output')) {
    process.stdout.write(JSON.stringify({ decision: 'block', reason: 'RULE-POST-BLOCK: look at that output again' }));
  }
});
