/**
 * The Gemini API as Gemini CLI speaks it (through `@google/genai`, at `GOOGLE_GEMINI_BASE_URL`):
 * `POST /v1beta/models/MODEL:streamGenerateContent?alt=sse` for the chat, `:generateContent` for its helpers (JSON
 * answers to a `responseJsonSchema`, such as the next-speaker check's, which asks a model of its own) and
 * `:countTokens`. A streamed answer is `data:` events of `GenerateContentResponse`; Gemini CLI refuses a stream whose
 * last event has no `finishReason`, or that ends with neither text nor a function call (and retries it).
 *
 * With a model named on the command line (`-m`) and the next-speaker check off (its default), Gemini CLI 0.61 makes
 * no request but the chat's; a helper is answered all the same, should a setting turn one on.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, sendSse, type MockApi, type RecordedRequest, type Turn } from '../support/mock-server.js';

/** The name of Gemini CLI's shell tool, as the model sees it and as its hooks are told. */
export const SHELL_TOOL_NAME = 'run_shell_command';

interface Schema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly items?: Schema;
}

interface FunctionDeclaration {
  readonly name?: string;
  readonly parameters?: Schema;
  readonly parametersJsonSchema?: Schema;
}

interface GenerateContentRequest {
  readonly tools?: readonly { readonly functionDeclarations?: readonly FunctionDeclaration[] }[];
  readonly generationConfig?: { readonly responseJsonSchema?: Schema; readonly responseSchema?: Schema; readonly responseMimeType?: string };
}

const declarationsOf = (body: unknown): readonly FunctionDeclaration[] => {
  const tools = (body as GenerateContentRequest | undefined)?.tools;
  return Array.isArray(tools) ? tools.flatMap((t) => (Array.isArray(t?.functionDeclarations) ? t.functionDeclarations : [])) : [];
};

/** Every function's name the request offers the model. */
export const toolNamesOf = (body: unknown): string[] => declarationsOf(body).map((d) => d.name ?? '?');

/** The shell tool a request offers: only requests of the main loop offer it. */
export const shellToolOf = (body: unknown): FunctionDeclaration | undefined => declarationsOf(body).find((d) => d.name === SHELL_TOOL_NAME);

/**
 * A value that fits `schema`: the first of an enum, else an empty value of its type, with every required property.
 * The next-speaker check gets `next_speaker: "user"` this way (its enum is `["user", "model"]`): the turn ends where
 * the script says it does, instead of the CLI asking the model to "continue".
 */
export function valueOf(schema: Schema | undefined): unknown {
  if (schema === undefined) return 'ok';
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
  const type = String(Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? (schema.properties ? 'object' : 'string'))).toLowerCase();
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, property]) => [key, valueOf(property)]));
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'number':
    case 'integer':
      return 0;
    default:
      return 'ok';
  }
}

let sequence = 0;
const nextId = (): string => `mock-${Date.now().toString(36)}${(sequence++).toString(36)}`;

type Part = { readonly text: string } | { readonly functionCall: { readonly name: string; readonly args: Record<string, unknown> } };

const USAGE = { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 };

/** One `GenerateContentResponse`; only the last of a stream says why the candidate finished. */
const response = (model: string, parts: readonly Part[], finished = true) => ({
  candidates: [{ content: { role: 'model', parts }, ...(finished ? { finishReason: 'STOP' } : {}), index: 0 }],
  usageMetadata: USAGE,
  modelVersion: model,
  responseId: nextId(),
});

/** The model named in `/v1beta/models/MODEL:method`. */
const modelOf = (path: string): string => /\/models\/([^/:]+):/.exec(path)?.[1] ?? 'gemini-2.5-flash';

/** Streams `parts`, a text split over two events, so that a client that keeps only one chunk is caught. */
function stream(res: ServerResponse, model: string, parts: readonly Part[]): void {
  const [only] = parts;
  if (parts.length === 1 && only !== undefined && 'text' in only && only.text.length > 1) {
    const half = only.text.length >> 1;
    sendSse(res, [{ data: response(model, [{ text: only.text.slice(0, half) }], false) }, { data: response(model, [{ text: only.text.slice(half) }]) }]);
    return;
  }
  sendSse(res, [{ data: response(model, parts) }]);
}

/** The Gemini API adapter. */
export function geminiApi(): MockApi {
  return {
    name: 'Gemini',
    handle(request: RecordedRequest, res: ServerResponse, next: () => Turn) {
      const path = request.path.split('?')[0] ?? '';
      const model = modelOf(path);
      if (request.method === 'POST' && path.endsWith(':countTokens')) {
        sendJson(res, 200, { totalTokens: 100 });
        return { main: false };
      }
      if (request.method === 'GET' && /\/models\/?$/.test(path)) {
        sendJson(res, 200, { models: [] });
        return { main: false };
      }
      const streaming = path.endsWith(':streamGenerateContent');
      if (request.method !== 'POST' || !(streaming || path.endsWith(':generateContent'))) {
        sendJson(res, 404, { error: { code: 404, message: `the mock has no ${request.method} ${path}`, status: 'NOT_FOUND' } });
        return { main: false };
      }
      const body = (request.body ?? {}) as GenerateContentRequest;
      const shell = shellToolOf(body);
      let turn: Turn | undefined;
      let parts: Part[];
      if (shell === undefined) {
        // A helper: JSON of the shape asked for, else a short text. Either keeps the run going and the script whole.
        const schema = body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema;
        const json = schema !== undefined || body.generationConfig?.responseMimeType === 'application/json';
        parts = [{ text: json ? JSON.stringify(valueOf(schema)) : 'ok' }];
      } else {
        turn = next();
        if ('also' in turn) throw new Error('the Gemini mock plays one call per answer');
        parts = ['shell' in turn ? { functionCall: { name: SHELL_TOOL_NAME, args: { command: turn.shell } } } : { text: turn.text }];
      }
      if (streaming) stream(res, model, parts);
      else sendJson(res, 200, response(model, parts));
      return turn === undefined ? { main: false } : { main: true, turn };
    },
  };
}
