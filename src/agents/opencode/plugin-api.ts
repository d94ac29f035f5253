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
  /** `client.app.log`, which writes to OpenCode's log file. */
  readonly app?: OpenCodeAppClient | undefined;
}

/** The part of `client.app` the plugin calls. */
export interface OpenCodeAppClient {
  /** Writes one line to OpenCode's log (`~/.local/share/opencode/log/`), under `service`. */
  log?(options: { body: { service: string; level: 'debug' | 'info' | 'warn' | 'error'; message: string } }): unknown;
}

/** What OpenCode hands `tool.execute.before` and `tool.execute.after` as their first argument. */
export interface OpenCodeToolInput {
  /** The tool's name: `bash`, `read`, `write`, `edit`, `apply_patch`, `glob`, `grep`, `webfetch`, `task`, an MCP tool's… */
  readonly tool: string;
  /** The session the call belongs to. */
  readonly sessionID?: string | undefined;
  /** The call's id, the same in `tool.execute.before` and `tool.execute.after`. */
  readonly callID?: string | undefined;
  /** The call's arguments (`tool.execute.after` only). */
  readonly args?: Record<string, unknown> | undefined;
}

/** The second argument of `tool.execute.before`: the arguments the tool runs with, changed in place. */
export interface OpenCodeToolArgs {
  /** The arguments: a rewrite is written into this object. */
  args: Record<string, unknown>;
}

/** The second argument of `tool.execute.after`: what the model gets back, changed in place. */
export interface OpenCodeToolResult {
  /** The result's title, shown to the user. */
  title?: string;
  /** The text the model reads as the tool's result. */
  output: string;
  /** The tool's own details (a shell's exit code, …). */
  metadata?: unknown;
}

/** One part of a user message: the plugin reads and adds `text` parts. */
export interface OpenCodePart {
  /** `text`, `file`, `agent`, … */
  readonly type: string;
  /** The text of a `text` part. */
  text?: string;
  /** Set on text OpenCode (or a plugin) added, which the user did not type. */
  readonly synthetic?: boolean;
  /** Its ids (`id`, `messageID`, `sessionID`) and the fields of other kinds of part. */
  readonly [key: string]: unknown;
}

/** The first argument of `chat.message`. */
export interface OpenCodeChatInput {
  /** The session the message is for. */
  readonly sessionID: string;
  /** The OpenCode agent (`build`, `plan`, …) that answers it. */
  readonly agent?: string | undefined;
  /** The message's id, when it was given one before the hook. */
  readonly messageID?: string | undefined;
}

/** A user message as `chat.message` hands it over. */
export interface OpenCodeMessage {
  /** Its id: the parts the plugin adds carry it. */
  readonly id: string;
  /** Its session. */
  readonly sessionID: string;
  /** Its role, agent, model and times. */
  readonly [key: string]: unknown;
}

/** The second argument of `chat.message`: the user's message and its parts, saved after the hook returns. */
export interface OpenCodeChatOutput {
  /** The message: its `id`, its `sessionID`, its role, agent and model. */
  readonly message: OpenCodeMessage;
  /** Its parts, in order: the plugin adds synthetic text parts here. */
  parts: OpenCodePart[];
}

/** A bus event, as the `event` hook receives it (`session.created`, `session.idle`, `session.deleted`, …). */
export interface OpenCodeEvent {
  /** The event's name. */
  readonly type: string;
  /** Its data: `sessionID` for `session.idle`, the session's `info` for `session.created` and `session.deleted`. */
  readonly properties?: Readonly<Record<string, unknown>> | undefined;
}

/** The hooks the plugin returns to OpenCode. */
export interface OpenCodeHooks {
  /** PreToolUse: throws to refuse the call, writes a rewrite into `output.args`. */
  'tool.execute.before'(input: OpenCodeToolInput, output: OpenCodeToolArgs): Promise<void>;
  /** PostToolUse: appends context to `output.output`, or replaces it with a rewritten result. */
  'tool.execute.after'(input: OpenCodeToolInput, output: OpenCodeToolResult): Promise<void>;
  /** SessionStart (a session's first message) and UserPromptSubmit: adds context parts, rewrites or rejects the prompt. */
  'chat.message'(input: OpenCodeChatInput, output: OpenCodeChatOutput): Promise<void>;
  /** Stop on `session.idle`, SessionEnd on `session.deleted`: observed only. */
  event(input: { readonly event: OpenCodeEvent }): Promise<void>;
}

/** An OpenCode plugin: an async function of OpenCode's context returning its hooks. */
export type OpenCodePlugin = (context: OpenCodePluginContext) => Promise<OpenCodeHooks>;
