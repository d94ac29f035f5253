/**
 * The parts of `agent-hooks bridge --help` that list agents: read from their profiles, so that a new room shows in
 * the help with its files and variables without this command naming it.
 *
 * @module
 * @internal
 */
import { AGENT_PROFILES } from '../../agents/registry.js';
import { BRIDGE_AGENTS } from '../../bridge/bridge-answer.js';
import type { AgentProfile } from '../../agents/profile.js';

/** `a, b or c`. */
export function spoken(items: readonly string[], last = 'or'): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;
}

/** The width help texts are wrapped at. */
const WIDTH = 118;

/** `text` in lines of at most {@link WIDTH} characters, the first after `first`, the others after `indent`. */
function wrap(first: string, indent: string, text: string): string {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(/\s+/)) {
    if (line.length > indent.length && line.trim() !== '' && line.length + 1 + word.length > WIDTH && line !== first) {
      lines.push(line);
      line = indent + word;
    } else {
      line = line === first ? `${first}${word}` : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/**
 * One option of a help text: the flag in its column, the text wrapped beside it.
 *
 * @internal
 */
export const option = (flag: string, text: string): string => wrap(`  ${flag.padEnd(19)}`, ' '.repeat(21), text);

/**
 * A paragraph of a help text, wrapped.
 *
 * @internal
 */
export const paragraph = (text: string): string => wrap('', '', text);

const where = (pick: (profile: AgentProfile) => boolean): AgentProfile[] => AGENT_PROFILES.filter(pick);

/** Where `--install` writes for one agent: `claude .claude/settings.json`. */
function installPlace(profile: AgentProfile): string {
  const { file, layout } = profile.install;
  return layout === 'scripts' ? `${profile.id} one executable script per event in ${file}/ (never over a script of the project's own)` : `${profile.id} ${file}`;
}

/** The user-level file of `profile`, under `~`, or `undefined`. */
function userPlace(profile: AgentProfile): string | undefined {
  const at = profile.userHookFile('~', {});
  return at === undefined ? undefined : `${at.dir}/${at.file}`;
}

/**
 * The agent lists of the bridge's help and messages.
 *
 * @internal
 */
export const BRIDGE_HELP = (() => {
  const http = where((p) => p.httpHooks).map((p) => p.id);
  const eventArgument = where((p) => p.install.eventArgument);
  const variables = where((p) => p.install.projectVariable !== undefined).map((p) => p.install.projectVariable!);
  const noUserField = where((p) => p.userMessageField === undefined);
  const otherFields = [...new Set(where((p) => p.userMessageField !== undefined && p.userMessageField !== 'systemMessage').map((p) => `${p.title}'s ${p.userMessageField}`))];
  return {
    /** `claude|copilot|…`, as `--from` takes them. */
    from: BRIDGE_AGENTS.join('|'),
    /** The same, as a sentence lists them. */
    fromList: spoken(BRIDGE_AGENTS),
    /** `claude|codex|…`, as `--install` takes them. */
    install: AGENT_PROFILES.map((p) => p.id).join('|'),
    /** The agents `--install … --http` writes for. */
    http: http.join('|'),
    httpList: spoken(http),
    /** The agents whose payloads name no event: `--event` is for them. */
    eventArgument: spoken(eventArgument.map((p) => p.title)),
    /** An agent's project variable, for an example. */
    exampleVariable: variables[0] ?? 'its project variable',
    /** Every project variable a line goes through. */
    variables: spoken([...new Set(variables)]),
    /** Where `--install` writes, agent by agent. */
    installPlaces: AGENT_PROFILES.map(installPlace).join(', '),
    /** Where `--install --user` writes, agent by agent. */
    userPlaces: AGENT_PROFILES.map(userPlace).filter((p) => p !== undefined).join(', '),
    /** The agents whose timeout is written in milliseconds. */
    milliseconds: spoken(where((p) => p.install.timeout.unit === 'ms').map((p) => p.title)),
    /** Where a user hears of skipped hooks, besides `systemMessage`. */
    otherUserFields: otherFields.join(', '),
    /** The agents whose answers have no field for the user. */
    noUserField: spoken(noUserField.map((p) => p.title)),
  };
})();
