/**
 * An agent's tool names in the shared vocabulary (`TOOL_VOCABULARY`, in core, where every tool-name matcher reads it).
 *
 * @module
 * @internal
 */
import { TOOL_VOCABULARY, type ToolVocabularyAgent } from '../core/tool-vocabulary.js';

/**
 * The agent's names for each tool of the vocabulary it has, by the tool's canonical name (`Shell: ['Bash']`).
 *
 * @internal
 */
export function vocabularyOf(agent: ToolVocabularyAgent): Readonly<Record<string, readonly string[]>> {
  const tools: Record<string, readonly string[]> = {};
  for (const entry of TOOL_VOCABULARY) {
    const names = entry.names[agent];
    if (names !== undefined) tools[entry.canonical] = names;
  }
  return Object.freeze(tools);
}
