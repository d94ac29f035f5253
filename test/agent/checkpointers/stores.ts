/**
 * Opens each checkpointer from a JSON config, the same way in a test and in the child processes of the conformance
 * suite: the child is given the config on its command line.
 */
import { FileCheckpointer, MemoryCheckpointer, type Checkpointer } from '../../../src/index.js';

/** Where one test's store lives. */
export type StoreConfig =
  | { readonly kind: 'memory' }
  | { readonly kind: 'file'; readonly directory: string };

/** A checkpointer and what closes its connection. */
export interface OpenedStore {
  readonly checkpointer: Checkpointer;
  close(): Promise<void>;
}

/** The checkpointer `config` names, on a connection of its own (a pool, a client, a database handle). */
export async function openStore(config: StoreConfig): Promise<OpenedStore> {
  switch (config.kind) {
    case 'memory':
      return { checkpointer: new MemoryCheckpointer(), close: async () => {} };
    case 'file':
      return { checkpointer: new FileCheckpointer(config.directory), close: async () => {} };
  }
}
