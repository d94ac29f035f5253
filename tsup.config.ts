import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The library: ESM and CommonJS, each with its declarations.
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
    outDir: 'dist',
  },
  {
    // The `agent-hooks` executable: ESM only, nothing to import.
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    outDir: 'dist',
  },
]);
