// Internal: not exported from the package.

/** The message of anything thrown: an Error's message, else its string form. */
export const messageOf = (thrown: unknown): string => (thrown instanceof Error ? thrown.message : String(thrown));
