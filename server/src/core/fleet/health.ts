import type { FastifyInstance } from 'fastify';

/** one dependency's answer: reachable, or why not */
export interface CheckResult { ok: boolean; ms: number; reason?: string }

const CHECK_TIMEOUT_MS = 2_000;

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** a failure's reason without hosts, paths or credentials: the error's code or class */
function reasonOf(e: unknown): string {
  if (e && typeof e === 'object') {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
    if (e instanceof Error && /^no answer within/.test(e.message)) return 'timeout';
  }
  return 'unavailable';
}

/**
 * Liveness and readiness. The process is live while it answers; it is ready while every dependency it needs
 * answers (the database and its migrations, Redis, the device broker: each registered by what uses it) and it
 * is not shutting down, so a proxy takes it out of rotation before it stops accepting.
 */
export class Health {
  private readonly checks = new Map<string, () => Promise<unknown>>();
  private draining_ = false;

  get draining(): boolean {
    return this.draining_;
  }

  /** from now on readiness fails: the proxy stops sending new requests here */
  drain(): void {
    this.draining_ = true;
  }

  /** `check` resolves when the dependency answers and rejects (or never settles) when it does not */
  add(name: string, check: () => Promise<unknown>): void {
    this.checks.set(name, check);
  }

  async readiness(): Promise<{ ready: boolean; checks: Record<string, CheckResult> }> {
    const results = await Promise.all([...this.checks].map(async ([name, check]) => {
      const started = performance.now();
      try {
        await within(check(), CHECK_TIMEOUT_MS);
        return [name, { ok: true, ms: Math.round(performance.now() - started) }] as const;
      } catch (e) {
        return [name, { ok: false, ms: Math.round(performance.now() - started), reason: reasonOf(e) }] as const;
      }
    }));
    const checks = Object.fromEntries(results);
    return { ready: !this.draining_ && results.every(([, r]) => r.ok), checks };
  }
}

export function registerHealthRoutes(app: FastifyInstance, health: Health): void {
  const schema = { hide: true };
  app.get('/healthz', { config: { access: { public: true } }, schema }, async (_req, reply) => {
    void reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', { config: { access: { public: true } }, schema }, async (_req, reply) => {
    const { ready, checks } = await health.readiness();
    void reply.code(ready ? 200 : 503).header('cache-control', 'no-store');
    return { status: health.draining ? 'draining' : ready ? 'ready' : 'not ready', checks };
  });
}
