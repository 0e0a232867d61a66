import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // one browser and one server: files run one after another
    fileParallelism: false,
    pool: 'forks',
    // one worker process for every file (they share no module state: each file opens its own browser), which
    // saves each file's process start and imports
    isolate: false,
  },
});
