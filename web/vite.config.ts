import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';

export default defineConfig(({ mode }) => {
  // The API server that the dev server and `vite preview` forward to (CONSOLE_API_URL overrides it).
  const apiTarget = loadEnv(mode, '.', 'CONSOLE_').CONSOLE_API_URL ?? 'http://127.0.0.1:8080';
  const proxy = {
    '/api': { target: apiTarget },
    '/version.json': { target: apiTarget },
  };
  return {
    plugins: [react()],
    server: { host: '127.0.0.1', port: 5173, proxy },
    preview: { host: '127.0.0.1', port: 4173, proxy },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      target: 'es2022',
      // The table pages' chunk (antd + ProComponents) is large by nature; it loads lazily with them.
      chunkSizeWarningLimit: 1200,
    },
  };
});
