/**
 * The error of `agent-hooks bridge --install` when it cannot change an agent's config safely.
 *
 * @module
 */

/**
 * Thrown when the bridge cannot be installed safely: the config is not JSON or not of the agent's shape, a path is a
 * symbolic link, no event is left to bridge, or no command line can be found. Nothing has been written.
 */
export class InstallBridgeError extends Error {
  /** Always `InstallBridgeError`. */
  override readonly name = 'InstallBridgeError';
}
