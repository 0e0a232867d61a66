import { defineConfig } from 'drizzle-kit';

// Only `generate` is used: migrations are applied by the server at start (src/core/db/migrate.ts).
export default defineConfig({ dialect: 'postgresql', schema: ['./src/core/db/schema.ts', './src/areas/*/tables.ts'], out: './drizzle' });
