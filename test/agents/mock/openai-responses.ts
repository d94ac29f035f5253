/**
 * The OpenAI Responses API as Codex CLI speaks it: `POST /v1/responses` with `stream: true`, answered with the
 * server-sent events Codex reads — `response.created`, `response.output_item.added`/`.done`, the text and argument
 * deltas, and `response.completed` with an id and usage. Codex takes the output from `response.output_item.done`
 * and treats a stream without `response.completed` as broken (and retries it).
 */
import type { ServerResponse } from 'node:http';
import { sendJson, sendSse, type MockApi, type RecordedRequest, type Turn } from '../support/mock-server.js';

/**
 * The names the shell tool goes by, in the order they are looked for: Codex 0.169.0 offers `exec_command` (`cmd`);
 * earlier versions offered `shell_command` (a command string) or `shell` (an argv array).
 */
export const SHELL_TOOL_NAMES: readonly string[] = ['exec_command', 'shell_command', 'shell'];

interface Tool {
  readonly type?: string;
  readonly name?: string;
  readonly parameters?: { readonly properties?: Readonly<Record<string, { readonly type?: string }>> };
}

const toolsOf = (body: unknown): readonly Tool[] => {
  const tools = (body as { tools?: unknown } | undefined)?.tools;
  return Array.isArray(tools) ? (tools as Tool[]) : [];
};

/** Every tool's name as the model sees it (a hosted tool such as `web_search` has only a type). */
export const toolNamesOf = (body: unknown): string[] => toolsOf(body).map((t) => t.name ?? t.type ?? '?');

/** The shell tool a request offers: only requests of the main loop offer it. */
export function shellToolOf(body: unknown): Tool | undefined {
  const tools = toolsOf(body);
  for (const name of SHELL_TOOL_NAMES) {
    const tool = tools.find((t) => t.type === 'function' && t.name === name);
    if (tool !== undefined) return tool;
  }
  return undefined;
}

/** The arguments `tool` takes to run `command`, in the shape its schema asks for. */
function shellArguments(tool: Tool, command: string): Record<string, unknown> {
  const properties = tool.parameters?.properties ?? {};
  if ('cmd' in properties) return { cmd: command };
  if (properties.command?.type === 'array') return { command: ['bash', '-lc', command] };
  return { command };
}

let sequence = 0;
const nextId = (prefix: string): string => `${prefix}_${Date.now().toString(36)}${(sequence++).toString(36)}`;

const USAGE = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 };

interface SseEvent {
  readonly event: string;
  readonly data: unknown;
}

/** The events of one streamed response whose only output is `item`, with `deltas` before it is done. */
function respond(item: { readonly id: string; readonly type: string; readonly [field: string]: unknown }, deltas: readonly Record<string, unknown>[]): SseEvent[] {
  const response = { id: nextId('resp'), object: 'response', status: 'in_progress', output: [] as unknown[] };
  const started = item.type === 'message' ? { ...item, status: 'in_progress', content: [] } : { ...item, status: 'in_progress', arguments: '' };
  const events: Record<string, unknown>[] = [
    { type: 'response.created', response },
    { type: 'response.output_item.added', output_index: 0, item: started },
    ...deltas.map((delta) => ({ ...delta, output_index: 0, item_id: item.id })),
    { type: 'response.output_item.done', output_index: 0, item: { ...item, status: 'completed' } },
    { type: 'response.completed', response: { ...response, status: 'completed', output: [item], usage: USAGE } },
  ];
  return events.map((data) => ({ event: String(data.type), data }));
}

function message(text: string): SseEvent[] {
  const item = { type: 'message', id: nextId('msg'), role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] };
  return respond(item, [{ type: 'response.output_text.delta', content_index: 0, delta: text }]);
}

function shellCall(tool: Tool, command: string): SseEvent[] {
  const args = JSON.stringify(shellArguments(tool, command));
  const item = { type: 'function_call', id: nextId('fc'), call_id: nextId('call'), name: tool.name, arguments: args };
  return respond(item, [
    { type: 'response.function_call_arguments.delta', delta: args },
    { type: 'response.function_call_arguments.done', arguments: args },
  ]);
}

/** The Responses API adapter. */
export function openAiResponsesApi(): MockApi {
  return {
    name: 'OpenAI Responses',
    handle(request: RecordedRequest, res: ServerResponse, next: () => Turn) {
      const path = request.path.split('?')[0] ?? '';
      // Codex may ask a custom provider for its models; an empty list leaves it on the configured one.
      if (request.method === 'GET' && path.endsWith('/models')) {
        sendJson(res, 200, { object: 'list', data: [], models: [] });
        return { main: false };
      }
      if (request.method !== 'POST' || !path.endsWith('/responses')) {
        sendJson(res, 404, { error: { message: `the mock has no ${request.method} ${path}` } });
        return { main: false };
      }
      const shell = shellToolOf(request.body);
      // Without the shell tool the request is one Codex makes on the side (a summary, a title, a subagent's
      // helper): a short text keeps it going and leaves the script alone.
      if (shell === undefined) {
        sendSse(res, message('ok'));
        return { main: false };
      }
      const turn = next();
      if ('also' in turn) throw new Error('the Responses mock plays one call per answer');
      sendSse(res, 'shell' in turn ? shellCall(shell, turn.shell) : message(turn.text));
      return { main: true, turn };
    },
  };
}
