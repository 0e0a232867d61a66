import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// the workspace contract of this checkout (a git worktree may share another checkout's node_modules)
const contract = fileURLToPath(new URL('../contract/src/', import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@console\/contract$/, replacement: `${contract}index.ts` },
      { find: /^@console\/contract\/(.*)$/, replacement: `${contract}$1.ts` },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    // a worker keeps its modules from one file to the next (each file still starts its own server on its own
    // database): importing the server's modules again for each of 110 files took a third of the run
    isolate: false,
  },
});
