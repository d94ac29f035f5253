// The names the docs' code blocks leave to the reader, with the types a reader's own code would give them.
declare const model: import('agent-hooks').Model;
declare const bash: import('agent-hooks').Tool;
declare const writeFile: import('agent-hooks').Tool;
declare const deploy: import('agent-hooks').Tool;
declare const projectDir: string;
declare const trace: typeof import('@opentelemetry/api').trace;
declare function runSomehow(command: string): Promise<string>;
declare function askTheUser(call: import('agent-hooks').ToolCall): Promise<boolean>;
declare const checkBudget: import('agent-hooks').EventCallback<'PreToolUse'>;
interface RateLimiter {
  check(): boolean;
}
