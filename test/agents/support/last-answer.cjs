#!/usr/bin/env node
// A hook that reads its payload's transcript_path as a hook of that agent would, and appends the last answer in it
// to last-answer.log: Gemini CLI's chat (the last `gemini` line with text), Codex CLI's rollout (the last assistant
// message) or Copilot CLI's session events (the last `assistant.message` with content). Used by the suite to check that a transcript written here reads like the agent's own.
const { appendFileSync, readFileSync } = require('node:fs');
const input = readFileSync(0, 'utf8');
const payload = JSON.parse(input);
let text;
try {
  text = readFileSync(payload.transcript_path ?? payload.transcriptPath, 'utf8');
} catch (error) {
  // Kept for the test's message: the payload, and why its transcript could not be read.
  appendFileSync('last-answer.err', `${String(error)}\n${input}\n`);
  process.exit(1);
}
const lines = text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
let last = '';
for (const line of lines) {
  if (line.type === 'gemini' && typeof line.content === 'string' && line.content !== '') last = line.content;
  if (line.type === 'assistant.message' && typeof line.data?.content === 'string' && line.data.content !== '') last = line.data.content;
  if (line.type === 'response_item' && line.payload?.type === 'message' && line.payload.role === 'assistant') {
    last = line.payload.content.filter((c) => c.type === 'output_text').map((c) => c.text).join('');
  }
}
appendFileSync('last-answer.log', `${JSON.stringify(last)}\n`);
