/**
 * The output objects of Claude Code's own tools, as a PostToolUse hook's `updatedToolOutput` must give them: Claude
 * Code 2.1.332 replaces the output of Bash and Read only with the tool's own output object, and ignores a plain string
 * (checked with the binary, `test/agents/claude-rules-feedback.test.ts`). Each such object reads as text here, and text
 * is written back in the object's shape through the bridge.
 *
 * @module
 * @internal
 */
import { isRecord } from './wire-output.js';

/** One tool's output object: how it reads as text, how text is written in it, and its shape for messages. */
interface OwnOutput {
  /** The text `value` holds, or `undefined` when it is not the tool's output object. */
  readonly text: (value: unknown) => string | undefined;
  /** `text` as the tool's output object, the fields of `sent` (the output Claude Code sent) kept. */
  readonly object: (text: string, sent: unknown) => Record<string, unknown>;
  /** The object's shape, for messages. */
  readonly shape: string;
}

const fieldsOf = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

const OWN_OUTPUTS: Readonly<Record<string, OwnOutput>> = {
  Bash: {
    text: (value) => {
      if (!isRecord(value) || typeof value.stdout !== 'string') return undefined;
      const stderr = typeof value.stderr === 'string' ? value.stderr : '';
      return [value.stdout, stderr].filter((part) => part !== '').join('\n');
    },
    object: (text, sent) => ({ interrupted: false, isImage: false, ...fieldsOf(sent), stdout: text, stderr: '' }),
    shape: '{"stdout": …, "stderr": …}',
  },
  Read: {
    text: (value) => (isRecord(value) && value.type === 'text' && isRecord(value.file) && typeof value.file.content === 'string' ? value.file.content : undefined),
    object: (text, sent) => {
      const fields = fieldsOf(sent);
      const lines = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
      return { ...fields, type: 'text', file: { ...fieldsOf(fields.file), content: text, numLines: lines } };
    },
    shape: '{"type": "text", "file": {"content": …}}',
  },
};

/**
 * The output object `tool` takes in `updatedToolOutput`, or `undefined` for a tool that takes any value.
 *
 * @internal
 */
export const claudeOwnOutput = (tool: string): OwnOutput | undefined => (Object.hasOwn(OWN_OUTPUTS, tool) ? OWN_OUTPUTS[tool] : undefined);
