/**
 * The part of OpenCode's plugin API the plugin uses, as OpenCode 1.18 and Kilo 7.7 call it (recorded in
 * `test/agents/fixtures/opencode/` and `fixtures/kilo/`). Typed here rather than imported from `@opencode-ai/plugin`,
 * which the package does not depend on: a project's plugin file re-exports ours without installing anything else.
 *
 * @module
 */

/** What OpenCode hands a plugin when it loads it (it hands more: `project`, `worktree`, `$`, `serverUrl`…). */
export interface OpenCodePluginContext {
  /** The folder OpenCode runs in: the project whose hooks run. */
  readonly directory: string;
  /** OpenCode's SDK client: the plugin writes its warnings to OpenCode's log through `client.app.log`. */
  readonly client?: OpenCodeClient | undefined;
}

/** The part of OpenCode's SDK client the plugin calls. */
export interface OpenCodeClient {
  readonly app?: { log?(options: { body: { service: string; level: 'debug' | 'info' | 'warn' | 'error'; message: string } }): unknown } | undefined;
}

/** What OpenCode hands `tool.execute.before` and `tool.execute.after` as their first argument. */
export interface OpenCodeToolInput {
  /** The tool's name: `bash`, `read`, `write`, `edit`, `apply_patch`, `glob`, `grep`, `webfetch`, `task`, an MCP tool's… */
  readonly tool: string;
  readonly sessionID?: string | undefined;
  readonly callID?: string | undefined;
  /** The call's arguments (`tool.execute.after` only). */
  readonly args?: Record<string, unknown> | undefined;
}

/** The second argument of `tool.execute.before`: the arguments the tool runs with, changed in place. */
export interface OpenCodeToolArgs {
  args: Record<string, unknown>;
}

/** The second argument of `tool.execute.after`: what the model gets back, changed in place. */
export interface OpenCodeToolResult {
  title?: string;
  /** The text the model reads as the tool's result. */
  output: string;
  metadata?: unknown;
}

/** One part of a user message: the plugin reads and adds `text` parts. */
export interface OpenCodePart {
  readonly type: string;
  text?: string;
  readonly synthetic?: boolean;
  readonly [key: string]: unknown;
}

/** The first argument of `chat.message`. */
export interface OpenCodeChatInput {
  readonly sessionID: string;
  readonly agent?: string | undefined;
  readonly messageID?: string | undefined;
}

/** The second argument of `chat.message`: the user's message and its parts, saved after the hook returns. */
export interface OpenCodeChatOutput {
  readonly message: { readonly id: string; readonly sessionID: string; readonly [key: string]: unknown };
  parts: OpenCodePart[];
}

/** A bus event, as the `event` hook receives it (`session.created`, `session.idle`, `session.deleted`, …). */
export interface OpenCodeEvent {
  readonly type: string;
  readonly properties?: Readonly<Record<string, unknown>> | undefined;
}

/** The hooks the plugin returns to OpenCode. */
export interface OpenCodeHooks {
  'tool.execute.before'(input: OpenCodeToolInput, output: OpenCodeToolArgs): Promise<void>;
  'tool.execute.after'(input: OpenCodeToolInput, output: OpenCodeToolResult): Promise<void>;
  'chat.message'(input: OpenCodeChatInput, output: OpenCodeChatOutput): Promise<void>;
  event(input: { readonly event: OpenCodeEvent }): Promise<void>;
}

/** An OpenCode plugin: an async function of OpenCode's context returning its hooks. */
export type OpenCodePlugin = (context: OpenCodePluginContext) => Promise<OpenCodeHooks>;
