/**
 * The OpenAI Chat Completions API as Qwen Code, Cline's CLI and OpenCode speak it through an OpenAI-compatible
 * provider: `POST …/chat/completions`, streamed (server-sent `chat.completion.chunk`s ending with `data: [DONE]`) or
 * not, with the shell tool called through `tool_calls`; and `GET …/models`. A request of the main loop is one that
 * offers the agent's shell tool; what an agent asks on the side (a session title, a summary) gets a short text, so
 * the script is never spent on it.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, sendSse, type MockApi, type RecordedRequest, type Turn } from '../support/mock-server.js';
import { shellInput } from './anthropic.js';

/**
 * The names the shell tool goes by, in the order they are looked for: `run_shell_command` in Qwen Code,
 * `run_commands` in Cline's CLI (an array of commands), `bash` in OpenCode and Kilo.
 */
export const SHELL_TOOL_NAMES: readonly string[] = ['run_shell_command', 'run_commands', 'bash'];

/** The model every configured provider names; the mock answers as whichever model it is asked for. */
export const MOCK_MODEL = 'mock-model';

interface Schema {
  readonly properties?: Readonly<Record<string, { readonly type?: string; readonly enum?: readonly unknown[] }>>;
  readonly required?: readonly string[];
}

interface Tool {
  readonly type?: string;
  readonly function?: { readonly name?: string; readonly parameters?: Schema };
}

interface ChatRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
  readonly tools?: readonly Tool[];
}

const toolsOf = (body: unknown): readonly Tool[] => {
  const tools = (body as ChatRequest | undefined)?.tools;
  return Array.isArray(tools) ? (tools as Tool[]) : [];
};

/** Every tool's name as the model sees it. */
export const toolNamesOf = (body: unknown): string[] => toolsOf(body).map((t) => t.function?.name ?? '?');

/** The shell tool a request offers: only requests of the main loop offer it. */
export function shellToolOf(body: unknown): Tool | undefined {
  const tools = toolsOf(body);
  for (const name of SHELL_TOOL_NAMES) {
    const tool = tools.find((t) => t.function?.name === name);
    if (tool !== undefined) return tool;
  }
  return undefined;
}

/** The arguments `tool` takes to run `command`: Cline's `run_commands` takes a list, the others one command. */
function shellArguments(tool: Tool, command: string): Record<string, unknown> {
  const parameters = tool.function?.parameters;
  if (parameters?.properties?.commands?.type === 'array') return { commands: [command] };
  return shellInput({ input_schema: parameters }, command);
}

let sequence = 0;
const nextId = (prefix: string): string => `${prefix}_${Date.now().toString(36)}${(sequence++).toString(36).padStart(4, '0')}`;

const USAGE = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };

interface Call {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

/** Splits `text` in two, so that a client that only handles a single delta is caught. */
const halves = (text: string): string[] => (text.length < 2 ? [text] : [text.slice(0, text.length >> 1), text.slice(text.length >> 1)]);

function whole(model: string, text: string | undefined, calls: readonly Call[]): Record<string, unknown> {
  return {
    id: nextId('chatcmpl'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) }, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: USAGE,
  };
}

function stream(res: ServerResponse, model: string, text: string | undefined, calls: readonly Call[], usage: boolean): void {
  const id = nextId('chatcmpl');
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  const chunks: Record<string, unknown>[] = [chunk({ role: 'assistant', content: '' })];
  for (const part of text === undefined ? [] : halves(text)) chunks.push(chunk({ content: part }));
  calls.forEach((call, index) => {
    const [first, ...rest] = halves(call.function.arguments);
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: first ?? '' } }] }));
    for (const part of rest) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  chunks.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  if (usage) chunks.push({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: USAGE });
  sendSse(res, [...chunks.map((data) => ({ data })), { data: '[DONE]' }]);
}

/** The Chat Completions adapter. */
export function openAiChatApi(): MockApi {
  return {
    name: 'OpenAI Chat Completions',
    handle(request: RecordedRequest, res: ServerResponse, next: () => Turn) {
      const path = request.path.split('?')[0] ?? '';
      if (request.method === 'GET' && path.endsWith('/models')) {
        sendJson(res, 200, { object: 'list', data: [{ id: MOCK_MODEL, object: 'model', created: 0, owned_by: 'mock' }] });
        return { main: false };
      }
      if (request.method !== 'POST' || !path.endsWith('/chat/completions')) {
        sendJson(res, 404, { error: { message: `the mock has no ${request.method} ${path}`, type: 'not_found' } });
        return { main: false };
      }
      const body = (request.body ?? {}) as ChatRequest;
      const model = typeof body.model === 'string' ? body.model : MOCK_MODEL;
      const shell = shellToolOf(body);
      let turn: Turn | undefined;
      let text: string | undefined;
      let calls: Call[] = [];
      if (shell === undefined) {
        text = 'ok';
      } else {
        turn = next();
        const name = shell.function!.name!;
        const call = (command: string): Call => ({ id: nextId('call'), type: 'function', function: { name, arguments: JSON.stringify(shellArguments(shell, command)) } });
        if ('shell' in turn) calls = [turn.shell, ...(turn.also ?? [])].map(call);
        else text = turn.text;
      }
      if (body.stream === true) stream(res, model, text, calls, body.stream_options?.include_usage === true);
      else sendJson(res, 200, whole(model, text, calls));
      return turn === undefined ? { main: false } : { main: true, turn };
    },
  };
}
