import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from './core/config.js';
import { AREAS } from './areas/index.js';
import { shrinkYoungGenerationWhenIdle } from './core/idleGc.js';
import { createServer } from './server.js';

const started = performance.now();

const defaultWeb = fileURLToPath(new URL('../../web/dist', import.meta.url));
const config = loadConfig(process.env, {
  webDir: process.env.WEB_DIR ?? (existsSync(defaultWeb) ? defaultWeb : undefined),
});
const server = await createServer(config);
const address = await server.app.listen({ port: config.port, host: config.host });
const stopShrinking = shrinkYoungGenerationWhenIdle();
server.app.log.info(
  `console ready at ${address} (${server.ctx.dbKind}${server.ctx.dbKind === 'pglite' ? ` in ${config.dataDir}` : ''}, `
  + `cache ${server.ctx.kv.kind}${AREAS.map((a) => a.status ? `, ${a.status(server.ctx)}` : '').join('')}) in ${Math.round(performance.now() - started)} ms`,
);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  server.app.log.info(`${signal}: shutting down`);
  // the graceful stop cuts what is left at its deadline; this is the backstop should a close itself hang
  const force = setTimeout(() => process.exit(1), config.shutdown.drainMs + config.shutdown.graceMs + 5_000);
  force.unref();
  stopShrinking();
  try {
    await server.close();
    process.exit(0);
  } catch (e) {
    console.error(e);
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
