/**
 * The Anthropic Messages API as Claude Code speaks it, and as GitHub Copilot CLI does through a custom provider of
 * type `anthropic`: `POST /v1/messages`, streamed (server-sent `message_start`, `content_block_start`/`_delta`/`_stop`,
 * `message_delta`, `message_stop`) or not, and `POST /v1/messages/count_tokens`. A request of the main loop is one that
 * offers the agent's shell tool; everything else the agents ask on the side (a session title, a topic check, a quota
 * probe on a small model) gets a short text, so the script is never spent on it.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, sendSse, type MockApi, type RecordedRequest, type Turn } from '../support/mock-server.js';

/** The names the shell tool goes by: `Bash` in Claude Code, `bash` in Copilot CLI, `Execute` in Factory Droid. */
export const SHELL_TOOL_NAMES: readonly string[] = ['Bash', 'bash', 'Execute'];

interface Property {
  readonly type?: string;
  readonly enum?: readonly unknown[];
}

interface Tool {
  readonly name?: string;
  readonly type?: string;
  readonly input_schema?: { readonly properties?: Readonly<Record<string, Property>>; readonly required?: readonly string[] };
}

interface MessagesRequest {
  readonly model?: string;
  readonly stream?: boolean;
  readonly tools?: readonly Tool[];
}

const toolsOf = (body: unknown): readonly Tool[] => {
  const tools = (body as MessagesRequest | undefined)?.tools;
  return Array.isArray(tools) ? (tools as Tool[]) : [];
};

/** Every tool's name as the model sees it (a server tool such as `web_search_20250305` has a type and a name). */
export const toolNamesOf = (body: unknown): string[] => toolsOf(body).map((t) => t.name ?? t.type ?? '?');

/** The shell tool a request offers: only requests of the main loop offer it. */
export function shellToolOf(body: unknown): Tool | undefined {
  const tools = toolsOf(body);
  for (const name of SHELL_TOOL_NAMES) {
    const tool = tools.find((t) => t.name === name);
    if (tool !== undefined) return tool;
  }
  return undefined;
}

/**
 * The input that runs `command` through `tool`. Fields the schema requires besides the command are filled, since an
 * agent refuses a call that fails its own validation (Copilot's `bash` requires a `description`; Droid's `Execute` a
 * `summary` of three to eight words in sentence case, a `riskLevel` and a `riskLevelReason`).
 */
export function shellInput(tool: Tool, command: string): Record<string, unknown> {
  const input: Record<string, unknown> = { command };
  const properties = tool.input_schema?.properties ?? {};
  for (const field of tool.input_schema?.required ?? []) {
    if (field in input) continue;
    const property = properties[field] ?? {};
    if (property.enum !== undefined && property.enum.length > 0) input[field] = property.enum[0];
    else if (property.type === 'boolean') input[field] = false;
    else if (property.type === 'number' || property.type === 'integer') input[field] = 0;
    else input[field] = 'Run the command';
  }
  return input;
}

let sequence = 0;
const nextId = (prefix: string): string => `${prefix}_${Date.now().toString(36)}${(sequence++).toString(36).padStart(4, '0')}`;

/** A content block of the mock's answers. */
export type Block = { readonly type: 'text'; readonly text: string } | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: Record<string, unknown> };

const USAGE = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function message(model: string, blocks: readonly Block[]): Record<string, unknown> {
  return {
    id: nextId('msg'),
    type: 'message',
    role: 'assistant',
    model,
    content: blocks,
    stop_reason: blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: USAGE,
  };
}

/** Splits `text` in two, so that a client that only handles a single delta is caught. */
const halves = (text: string): string[] => (text.length < 2 ? [text] : [text.slice(0, text.length >> 1), text.slice(text.length >> 1)]);

function stream(res: ServerResponse, whole: Record<string, unknown>): void {
  const blockEvents = (whole.content as Block[]).flatMap((block, index) => {
    const deltas =
      block.type === 'text'
        ? halves(block.text).map((text) => ({ type: 'text_delta', text }))
        : halves(JSON.stringify(block.input)).map((partial_json) => ({ type: 'input_json_delta', partial_json }));
    return [
      { type: 'content_block_start', index, content_block: block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} } },
      ...(index === 0 ? [{ type: 'ping' }] : []),
      ...deltas.map((delta) => ({ type: 'content_block_delta', index, delta })),
      { type: 'content_block_stop', index },
    ];
  });
  const events = [
    { type: 'message_start', message: { ...whole, content: [], stop_reason: null, usage: { ...USAGE, output_tokens: 1 } } },
    ...blockEvents,
    { type: 'message_delta', delta: { stop_reason: whole.stop_reason, stop_sequence: null }, usage: { output_tokens: USAGE.output_tokens } },
    { type: 'message_stop' },
  ];
  sendSse(res, events.map((data) => ({ event: data.type, data })));
}

/** Answers `body` (a Messages request) with `blocks`, streamed when it asked for a stream. */
export function answerWith(res: ServerResponse, body: unknown, blocks: readonly Block[]): void {
  const request = (body ?? {}) as MessagesRequest;
  const whole = message(typeof request.model === 'string' ? request.model : 'mock', blocks);
  if (request.stream === true) stream(res, whole);
  else sendJson(res, 200, whole);
}

const notFound = (res: ServerResponse, what: string): void => sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: `the mock has no ${what}` } });

/** The Messages API adapter. */
export function anthropicApi(): MockApi {
  return {
    name: 'Anthropic Messages',
    handle(request: RecordedRequest, res: ServerResponse, next: () => Turn) {
      const path = request.path.split('?')[0] ?? '';
      if (request.method === 'GET' && path.endsWith('/models')) {
        sendJson(res, 200, { data: [], has_more: false, first_id: null, last_id: null });
        return { main: false };
      }
      if (request.method === 'POST' && path.endsWith('/messages/count_tokens')) {
        sendJson(res, 200, { input_tokens: 100 });
        return { main: false };
      }
      if (request.method !== 'POST' || !path.endsWith('/messages')) {
        notFound(res, `${request.method} ${path}`);
        return { main: false };
      }
      const body = (request.body ?? {}) as MessagesRequest;
      const model = typeof body.model === 'string' ? body.model : 'mock';
      const shell = shellToolOf(body);
      let turn: Turn | undefined;
      let blocks: Block[];
      if (shell === undefined) {
        blocks = [{ type: 'text', text: 'ok' }];
      } else {
        turn = next();
        const call = (command: string): Block => ({ type: 'tool_use', id: nextId('toolu'), name: shell.name!, input: shellInput(shell, command) });
        blocks = 'shell' in turn ? [turn.shell, ...(turn.also ?? [])].map(call) : [{ type: 'text', text: turn.text }];
      }
      const whole = message(model, blocks);
      if (body.stream === true) stream(res, whole);
      else sendJson(res, 200, whole);
      return turn === undefined ? { main: false } : { main: true, turn };
    },
  };
}
