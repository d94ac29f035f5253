/** Types of install-node.mjs, for the tests that run a check on another Node. */

/** The release tested for each major version. */
export declare const PINS: Record<number, string>;
/** The exact version `wanted` (a major version of PINS, or an exact `x.y.z`) names, or an error saying which exist. */
export declare function versionOf(wanted: string | number): string;
/** The `node` executable of `version` in the cache, installing it first when it is missing. */
export declare function installNode(version: string): string;
