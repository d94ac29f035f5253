/**
 * What hooks added to a conversation a framework keeps without them, put back into each of its later prompts.
 *
 * @module
 * @internal
 */

interface Insertion<T> {
  /** Where the messages go: before the framework's message at this index (its prompt's length when they were added). */
  readonly at: number;
  /** The framework's message just before them, which tells that a later prompt continues the same conversation. */
  readonly after: T | undefined;
  readonly messages: readonly T[];
}

/**
 * Messages the hooks added to a conversation (their context, AfterModel's feedback) that the framework does not keep:
 * a middleware sees each prompt the framework builds from its own history, so what it added to one call is put back
 * into the next ones, at the same place, as our agent keeps them in its conversation. A prompt that does not continue
 * the conversation they were added to (its message before them differs) drops them from there on.
 */
export class ConversationOverlay<T> {
  private readonly insertions: Insertion<T>[] = [];

  /** @param same - whether two of the framework's messages are the same message (its prompts are rebuilt each call). */
  constructor(private readonly same: (a: T, b: T) => boolean) {}

  /** Whether anything was added. */
  get empty(): boolean {
    return this.insertions.length === 0;
  }

  /** Adds `messages` after the whole of `prompt` (the framework's own, without what was put back). */
  add(prompt: readonly T[], messages: readonly T[]): void {
    if (messages.length === 0) return;
    this.insertions.push({ at: prompt.length, after: prompt[prompt.length - 1], messages: [...messages] });
  }

  /** `prompt` with what was added to its conversation put back; `prompt` itself when nothing was. */
  apply(prompt: readonly T[]): readonly T[] {
    if (this.insertions.length === 0) return prompt;
    const out: T[] = [];
    let from = 0;
    for (let i = 0; i < this.insertions.length; i++) {
      const { at, after, messages } = this.insertions[i]!;
      const continues = at <= prompt.length && (at === 0 || (after !== undefined && this.same(prompt[at - 1]!, after)));
      if (!continues) {
        this.insertions.length = i;
        break;
      }
      for (; from < at; from++) out.push(prompt[from]!);
      out.push(...messages);
    }
    for (; from < prompt.length; from++) out.push(prompt[from]!);
    return out;
  }
}
