/**
 * A scripted Anthropic Messages API on 127.0.0.1, for running the Claude Agent SDK without a key or a network: each
 * request of the agent's main loop (the ones that offer the `Bash` tool) gets the next turn of the script, as a
 * streamed answer; anything Claude Code asks on the side (a title, a token count) gets a short text.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer of the scripted model: run a shell command, or answer with text (which ends the turn). */
export type Turn = { readonly bash: string } | { readonly text: string };

/** A running scripted API. */
export interface ScriptedApi {
  /** The `ANTHROPIC_BASE_URL` to give the agent. */
  readonly url: string;
  /** Every main-loop request's body, as JSON text: what the model was told. */
  readonly received: string[];
  close(): Promise<void>;
}

let ids = 0;

function answer(res: ServerResponse, model: string, turn: Turn): void {
  const block = 'bash' in turn ? { type: 'tool_use', id: `toolu_${++ids}`, name: 'Bash', input: { command: turn.bash } } : { type: 'text', text: turn.text };
  const usage = { input_tokens: 10, output_tokens: 5 };
  const events: Record<string, unknown>[] = [
    { type: 'message_start', message: { id: `msg_${++ids}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } },
    { type: 'content_block_start', index: 0, content_block: block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} } },
    { type: 'content_block_delta', index: 0, delta: 'bash' in turn ? { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } : { type: 'text_delta', text: turn.text } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'bash' in turn ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: 'message_stop' },
  ];
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const event of events) res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
  res.end();
}

/** Starts the API with `turns` to play; when they run out, the model says `Done.`. */
export async function startScriptedApi(turns: readonly Turn[]): Promise<ScriptedApi> {
  const queue = [...turns];
  const received: string[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      if (!req.url?.split('?')[0]?.endsWith('/messages')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.url?.includes('count_tokens') ? { input_tokens: 10 } : { data: [], has_more: false }));
        return;
      }
      const body = JSON.parse(text) as { model?: string; tools?: { name?: string }[] };
      const main = (body.tools ?? []).some((t) => t.name === 'Bash');
      if (main) received.push(text);
      answer(res, body.model ?? 'scripted', main ? (queue.shift() ?? { text: 'Done.' }) : { text: 'ok' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
