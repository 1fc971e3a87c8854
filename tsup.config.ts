import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      'sources/index': 'src/sources/index.ts',
      'operators/index': 'src/operators/index.ts',
      'adapters/index': 'src/adapters/index.ts',
      'kernel/index': 'src/kernel/index.ts',
      'testing/index': 'src/testing/index.ts',
      'browser/index': 'src/browser/index.ts',
      'redis/index': 'src/redis/index.ts',
      'mcp/index': 'src/mcp/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: true,
    shims: true,
    treeshake: true,
    external: ['rxjs', 'zod', 'execa', 'signal-exit', 'ioredis', /^@modelcontextprotocol\/sdk(\/|$)/],
  },
  {
    entry: { 'cli/main': 'src/cli/main.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    external: ['rxjs', 'zod', 'execa', 'signal-exit', 'ioredis', /^@modelcontextprotocol\/sdk(\/|$)/],
  },
]);
