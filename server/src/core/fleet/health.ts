import type { FastifyInstance } from 'fastify';

/** one dependency's answer: reachable, or why not and for how long */
export interface CheckResult { ok: boolean; ms: number; reason?: string; failingMs?: number }

/** thrown by a check for a failure no grace covers (this build's migrations are missing) */
export class NotReady extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

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
 *
 * A shared dependency failing is not-ready only once it has failed for `graceMs` on end: a restart of Redis or the
 * broker, or a database failover, fails the same check on every instance at once, and taking them all out of the
 * proxy would turn the calls that do not need it, and the clear 503 of those that do, into the proxy's bare 503.
 * One instance that alone has lost a dependency for longer leaves the rotation.
 */
export class Health {
  private readonly checks = new Map<string, () => Promise<unknown>>();
  private readonly failingSince = new Map<string, number>();
  private draining_ = false;

  constructor(private readonly graceMs = 0) {}

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
    const now = Date.now();
    const results = await Promise.all([...this.checks].map(async ([name, check]) => {
      const started = performance.now();
      try {
        await within(check(), CHECK_TIMEOUT_MS);
        this.failingSince.delete(name);
        return { name, ready: true, result: { ok: true, ms: Math.round(performance.now() - started) } as CheckResult };
      } catch (e) {
        const since = this.failingSince.get(name) ?? now;
        this.failingSince.set(name, since);
        const failingMs = now - since;
        const result: CheckResult = { ok: false, ms: Math.round(performance.now() - started), reason: reasonOf(e), failingMs };
        return { name, ready: !(e instanceof NotReady) && failingMs < this.graceMs, result };
      }
    }));
    const checks = Object.fromEntries(results.map((r) => [r.name, r.result]));
    return { ready: !this.draining_ && results.every((r) => r.ready), checks };
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
    const degraded = ready && Object.values(checks).some((c) => !c.ok);
    return { status: health.draining ? 'draining' : degraded ? 'degraded' : ready ? 'ready' : 'not ready', checks };
  });
}
