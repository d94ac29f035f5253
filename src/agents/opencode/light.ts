/**
 * OpenCode and Kilo for the bridge's first stage: neither runs command hooks, so neither sends the bridge a payload.
 * The first stage passes any call naming them to the full path, whose reader refuses it with the way to install the
 * plugin instead. Node's own modules only.
 *
 * @module
 * @internal
 */
import type { LightAgentProfile } from '../light-profile.js';

/** A light profile for a plugin agent: it never reads an event or a field, so the full reader answers. */
const pluginAgentLight = <Id extends 'opencode' | 'kilo'>(id: Id): LightAgentProfile<Id> => ({
  id,
  projectVariables: [],
  writtenEvent: () => undefined,
  fields: () => undefined,
  learnEvent: () => Promise.resolve(null),
});

/**
 * OpenCode, for the first stage.
 *
 * @internal
 */
export const opencodeLight: LightAgentProfile<'opencode'> = pluginAgentLight('opencode');

/**
 * Kilo, for the first stage.
 *
 * @internal
 */
export const kiloLight: LightAgentProfile<'kilo'> = pluginAgentLight('kilo');
