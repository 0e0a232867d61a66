/**
 * OpenAPI-driven fuzz test: every operation of `GET /api/docs/json` (so every later route too) gets
 * hostile input — broken auth, NUL bytes, out-of-range numbers, huge and odd strings, wrong shapes,
 * deep and malformed JSON, wrong content types, oversized bodies, junk filters, paging and headers —
 * and every answer must be below 500 and be the envelope (or the raw endpoint's own shape).
 *
 *   FUZZ_SEED=<n|text>      another seed (the default is fixed, so the suite is deterministic; `random` picks one)
 *   FUZZ_REQUESTS=<n>       total requests (default 10000, spread over the operations)
 *   FUZZ_ONLY=<text>        only operations whose "METHOD /path" contains the text (cases keep their ids)
 *   FUZZ_CONCURRENCY=<n>    requests in flight (default 4)
 *   FUZZ_WATCH=1            check the fuzzer's own sessions after every request (use with FUZZ_CONCURRENCY=1):
 *                           the report then names each request that signed one out
 *   FUZZ_TRACE=1            print every request, the time its answer took and its start (with FUZZ_ONLY)
 *   FUZZ_TIMEOUT_MS=<n>     the whole run's time limit (default 900000)
 *
 * The tenant reaches the device screens over the "shared product type" fixture (fuzz/ownership.ts): no successful
 * answer to it may name another tenant's or an undelivered device, and after the run every list is swept for them.
 *
 * A failure prints each defect once: "METHOD path → status problem: message", then the smallest
 * request of each kind that triggered it, with its case id ([auth3], [v:query:size:17], [r12], …).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_API } from '@console/contract';
import { hashPassword } from '../src/core/auth/index.js';
import { and, eq } from 'drizzle-orm';
import { inTenant, schema } from '../src/core/db/index.js';
import { nextId } from '../src/core/ids.js';
import { postsaleUser } from '../src/areas/postsale/tables.js';
import { BASIC, md5, useServer } from './harness.js';
import { buildRequest, type BuiltRequest, type Case, type FuzzEnv, opKey, planCases, type Who } from './fuzz/generate.js';
import { learnTemplate, type Probe, type Template } from './fuzz/learn.js';
import { operationsOf, type Operation } from './fuzz/openapi.js';
import { describe as describeRequest, Failures, judge } from './fuzz/oracle.js';
import { parseSeed, PLAUSIBLE, Rng, seedOf } from './fuzz/values.js';
import { grantCodes, ioNoticeBinding } from './io-resource.js';
import { DEVICE_CODES, foreignIn, plantSharedProductType } from './fuzz/ownership.js';

const DEFAULT_SEED = 20_261_121;
const SEED = parseSeed(process.env.FUZZ_SEED, DEFAULT_SEED);
const REQUESTS = Math.max(1, Number(process.env.FUZZ_REQUESTS ?? 10_000) || 10_000);
const ONLY = process.env.FUZZ_ONLY ?? '';
const CONCURRENCY = Math.max(1, Number(process.env.FUZZ_CONCURRENCY ?? 4) || 4);
const WATCH = !!process.env.FUZZ_WATCH;
const TRACE = !!process.env.FUZZ_TRACE;
/** a request may take this long before it counts as a failure (the run goes on) */
const REQUEST_TIMEOUT_MS = 20_000;
/** fewest requests any operation gets, however many operations there are */
const MIN_PER_OPERATION = 60;
/**
 * CI's run (FUZZ_SYSTEMATIC_MAX=100: about 36,000 requests to 365 operations) takes about 2 minutes on PGlite on 2
 * cores, more on a machine busy with other test files; every systematic case of every operation takes far longer
 */
const TEST_TIMEOUT_MS = Number(process.env.FUZZ_TIMEOUT_MS ?? 900_000) || 900_000;
/** address of the fuzzer's own sign-ins: fuzzed requests never use it, so their budgets never block a re-login */
const LOGIN_ADDRESS = '127.0.0.1';

const ACCOUNTS: Record<Who, { tenantId: string; username: string; password: string }> = {
  platform: { tenantId: '000000', username: 'admin', password: 'admin' },
  tenant: { tenantId: '541742', username: 'admin', password: 'admin' },
};

// a resource declaring xlsx export and import (io), with its codes granted, so those routes are fuzzed too
const h = useServer({}, {}, { extraResources: [ioNoticeBinding] });
beforeAll(async () => {
  await grantCodes(h.server, ['notice_io', 'notice_io_add', 'notice_io_export', 'notice_io_import'], ['administrator', 'admin']);
  await grantCodes(h.server, DEVICE_CODES, ['admin']);
});

interface OpStats {
  sent: number;
  statuses: Map<number, number>;
  /** answers to requests with valid auth that were not 401 (the fuzzer got in) */
  pastAuth: number;
  /** 2xx answers */
  ok: number;
  systematic: number;
  systematicTotal: number;
  /** time its answers took, summed (ms) */
  ms: number;
}

describe('fuzzing every route of the OpenAPI document', () => {
  it(`answers ≥ ${REQUESTS} hostile requests without a 5xx, always with the envelope`, async () => {
    const started = performance.now();
    const app = h.server.app;
    console.log(`fuzz: FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS}${ONLY ? ` FUZZ_ONLY=${ONLY}` : ''} concurrency ${CONCURRENCY}`);

    // ------------------------------------------------------------ the operations
    const docRes = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docRes.statusCode).toBe(200);
    const doc = docRes.json() as unknown;
    const { operations: all, total, skipped } = operationsOf(doc, (p) => p.startsWith('/api/docs'));
    expect(all.length).toBe(total - skipped);
    expect(all.length, 'the document lists no operations').toBeGreaterThan(0);
    const operations = ONLY ? all.filter((op) => opKey(op).includes(ONLY)) : all;
    expect(operations.length, `FUZZ_ONLY=${ONLY} matches no operation`).toBeGreaterThan(0);

    // ------------------------------------------------------------ sessions
    const tokens = {} as Record<Who, string>;
    const relogins: Record<Who, number> = { platform: 0, tenant: 0 };
    // fuzzed calls end the fuzzer's sessions, reset its accounts' passwords and spend their sign-in budgets (now that
    // every operation documents its body, many reach their handlers): it restores the account and signs in again as an
    // operator would after user/unlock, each time from an address of its own, so neither the account's captcha nor one
    // address's budget stops the run
    let signIns = 0;
    const signIn = async (who: Who) => {
      const a = ACCOUNTS[who];
      const n = signIns++;
      await h.server.ctx.signIns.unlock(a.tenantId, a.username);
      // a fuzzed call may have reset, disabled or removed the account itself: put it back as it was
      const passwordHash = await hashPassword(md5(a.password));
      await inTenant(h.server.ctx.db, { tenantId: a.tenantId }, (tx) => tx.update(schema.user).set({ passwordHash, status: 1, isDeleted: 0 })
        .where(and(eq(schema.user.tenantId, a.tenantId), eq(schema.user.account, a.username))));
      await h.server.ctx.users.invalidate(a.tenantId);
      const res = await app.inject({
        method: 'POST', url: '/api/blade-auth/oauth/token', remoteAddress: `127.1.${Math.floor(n / 250)}.${(n % 250) + 1}`,
        query: { grant_type: 'password', tenantId: a.tenantId, username: a.username, password: md5(a.password), scope: 'all', type: 'account' },
        headers: { authorization: BASIC, 'tenant-id': a.tenantId },
      });
      if (res.statusCode !== 200) throw new Error(`sign-in of the fuzzer's ${who} account failed: ${res.body}`);
      return (res.json() as { access_token: string }).access_token;
    };
    tokens.platform = await signIn('platform');
    tokens.tenant = await signIn('tenant');
    const spares = [await signIn('platform'), await signIn('tenant'), await signIn('platform')];
    // a user of the phone app, for the operations that take its token (no fuzzed call can end that token)
    await inTenant(h.server.ctx.db, { tenantId: '541742' }, async (tx) => tx.insert(postsaleUser)
      .values({ id: nextId(), tenantId: '541742', phone: '13700000000', passwordHash: await hashPassword(md5('Fuzz#2026')) }));
    const appSignIn = await app.inject({
      method: 'POST', url: APP_API.token, remoteAddress: LOGIN_ADDRESS, payload: { tenantId: '541742', phone: '13700000000', password: md5('Fuzz#2026') },
    });
    expect(appSignIn.statusCode, appSignIn.body).toBe(200);
    const appToken = (appSignIn.json() as { data: { accessToken: string } }).data.accessToken;
    let sparesUsed = 0;
    const checking = new Map<Who, Promise<void>>();
    const reloginCauses: string[] = [];
    /** after a 401 on a valid token: is the session gone (signed out by a fuzzed call)? then sign in again */
    const recheck = (who: Who, after?: BuiltRequest): Promise<void> => {
      const running = checking.get(who);
      if (running) return running;
      const p = (async () => {
        const res = await app.inject({
          method: 'GET', url: '/api/blade-auth/oauth/user-info', remoteAddress: LOGIN_ADDRESS,
          headers: { authorization: BASIC, 'blade-auth': `bearer ${tokens[who]}` },
        });
        if (res.statusCode === 401) {
          tokens[who] = await signIn(who);
          relogins[who]++;
          if (after) reloginCauses.push(`  ${who} session found signed out after ${describeRequest(after)}`);
        }
      })().finally(() => checking.delete(who));
      checking.set(who, p);
      return p;
    };

    // ------------------------------------------------------------ devices of one product type, of two tenants
    const devices = await plantSharedProductType(h, tokens.platform, ACCOUNTS.tenant.tenantId);

    // ------------------------------------------------------------ every list, as the tenant, before the run changes grants: its own device, never another's
    const leaks: string[] = [];
    let ownSeen = 0;
    for (const op of all.filter((o) => o.method === 'GET' && o.isList)) {
      const res = await app.inject({
        method: 'GET', url: `${op.path}?size=500`, remoteAddress: LOGIN_ADDRESS, headers: { authorization: BASIC, 'blade-auth': `bearer ${tokens.tenant}` },
      });
      if (res.statusCode >= 300) continue;
      const leaked = foreignIn(res.body, devices);
      if (leaked.length) leaks.push(`  GET ${op.path} answers the tenant ${leaked.join(', ')}`);
      if (res.body.includes(devices.own)) ownSeen++;
    }

    // ------------------------------------------------------------ real data to aim at
    const samplesByResource = new Map<string, Record<string, unknown>[]>();
    const ids = new Set<string>();
    const resourceOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
    for (const op of all.filter((o) => o.method === 'GET' && o.isList)) {
      const res = await app.inject({
        method: 'GET', url: `${op.path}?size=50`, remoteAddress: LOGIN_ADDRESS,
        headers: { authorization: BASIC, 'blade-auth': `bearer ${tokens.platform}` },
      });
      const records = (res.json() as { data?: { records?: unknown } }).data?.records;
      if (res.statusCode !== 200 || !Array.isArray(records)) continue;
      const rows = records.filter((r): r is Record<string, unknown> => !!r && typeof r === 'object');
      samplesByResource.set(resourceOf(op.path), rows);
      for (const r of rows) if (typeof r.id === 'string') ids.add(r.id);
    }
    // values each operation accepts, so one hostile value at a time reaches the handler (learn.ts)
    const templates = new Map<string, Template>();
    let learningProbes = 0;
    let probeAddress = 0;
    const probe: Probe = async (op, where, values) => {
      const query = where === 'query' ? Object.entries(values).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`).join('&') : '';
      const res = await app.inject({
        method: op.method, url: query ? `${op.path}?${query}` : op.path, remoteAddress: `10.250.${(probeAddress >> 8) & 255}.${probeAddress++ & 255}`,
        headers: { authorization: BASIC, 'blade-auth': `bearer ${tokens.platform}`, ...(where === 'body' ? { 'content-type': 'application/json' } : {}) },
        ...(where === 'body' ? { payload: JSON.stringify(values) } : {}),
      });
      let body: unknown;
      try { body = res.json(); } catch { body = undefined; }
      return { status: res.statusCode, body };
    };
    for (const op of operations) {
      if (/\/oauth\/(logout|token)$/.test(op.path) || op.pathParams.length) continue;
      const learned = await learnTemplate(op, probe, PLAUSIBLE);
      learningProbes += learned.probes;
      if (learned.template) templates.set(opKey(op), learned.template);
    }

    const env: FuzzEnv = {
      basic: BASIC,
      token: (who) => tokens[who],
      appToken,
      spareToken: () => (sparesUsed < spares.length
        ? { token: spares[sparesUsed++] as string, fresh: true }
        : { token: spares[spares.length - 1] as string, fresh: false }),
      ids: [...ids],
      samples: (op: Operation) => samplesByResource.get(resourceOf(op.path)) ?? [],
      template: (op: Operation) => templates.get(opKey(op)),
    };

    // ------------------------------------------------------------ the plan
    const quota = Math.max(MIN_PER_OPERATION, Math.ceil(REQUESTS / operations.length));
    const stats = new Map<string, OpStats>();
    const plan: { op: Operation; c: Case }[] = [];
    for (const op of operations) {
      const { cases, systematic, systematicTotal } = planCases(op, SEED, quota);
      stats.set(opKey(op), { sent: 0, statuses: new Map(), pastAuth: 0, ok: 0, systematic, systematicTotal, ms: 0 });
      for (const c of cases) plan.push({ op, c });
    }
    new Rng(seedOf(SEED, 'order')).shuffle(plan);

    // ------------------------------------------------------------ the server's own view of its 5xx
    // (test-side instrumentation: the error log receives the error with its causes, e.g. PostgreSQL's message)
    const causes = new Map<string, string>();
    const logs = h.server.ctx.logs as unknown as Record<string, unknown>;
    const originalError = logs.error;
    if (typeof originalError === 'function') {
      logs.error = (...args: unknown[]) => {
        const req = args.find((a): a is { method: string; url: string } => !!a && typeof a === 'object' && 'url' in a && 'method' in a);
        const err = args.find((a): a is Error => a instanceof Error);
        if (req && err) causes.set(`${req.method} ${req.url}`, causeChain(err));
        return (originalError as (...a: unknown[]) => unknown).apply(h.server.ctx.logs, args);
      };
    }

    // ------------------------------------------------------------ the run
    const failures = new Failures();
    let sent = 0;
    let next = 0;
    const send = async (op: Operation, c: Case) => {
      const req: BuiltRequest = buildRequest(op, c, SEED, env);
      const s = stats.get(opKey(op)) as OpStats;
      s.sent++;
      sent++;
      let timer: NodeJS.Timeout | undefined;
      const began = performance.now();
      try {
        const res = await Promise.race([
          app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers, payload: req.payload, remoteAddress: req.remoteAddress }),
          new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)), REQUEST_TIMEOUT_MS); }),
        ]);
        s.statuses.set(res.statusCode, (s.statuses.get(res.statusCode) ?? 0) + 1);
        if (req.authValid && res.statusCode !== 401) s.pastAuth++;
        if (res.statusCode >= 200 && res.statusCode < 300) s.ok++;
        const { problems, message } = judge(req, { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: res.body });
        const cause = res.statusCode >= 500 ? causes.get(`${req.method} ${req.url}`) : undefined;
        for (const problem of problems) failures.add({ op: opKey(op), status: res.statusCode, problem, message, cause, req });
        const leaked = req.who === 'tenant' && res.statusCode < 300 ? foreignIn(res.body, devices) : [];
        if (leaked.length) failures.add({ op: opKey(op), status: res.statusCode, problem: 'another tenant\'s or an undelivered device answered to the tenant', message: leaked.join(', '), req });
        if (res.statusCode === 401 && req.who) await recheck(req.who, req);
        if (WATCH) for (const w of ['platform', 'tenant'] as Who[]) await recheck(w, req);
        if (TRACE) console.log(`${res.statusCode} ${Math.round(performance.now() - began)}ms ${describeRequest(req)}\n    → ${res.body.slice(0, 200)}`);
      } catch (e) {
        s.statuses.set(0, (s.statuses.get(0) ?? 0) + 1);
        failures.add({ op: opKey(op), status: 0, problem: 'request failed', message: String((e as Error)?.message ?? e), req });
      } finally {
        clearTimeout(timer);
        s.ms += performance.now() - began;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < plan.length) {
        const item = plan[next++];
        if (item) await send(item.op, item.c);
      }
    }));
    if (typeof originalError === 'function') logs.error = originalError;
    const fuzzSeconds = (performance.now() - started) / 1000;

    // ------------------------------------------------------------ still serving?
    await recheck('platform');
    const health = await app.inject({
      method: 'GET', url: '/api/blade-desk/notice/list', remoteAddress: LOGIN_ADDRESS,
      headers: { authorization: BASIC, 'blade-auth': `bearer ${tokens.platform}` },
    });

    // ------------------------------------------------------------ report
    const rows = operations.map((op) => {
      const s = stats.get(opKey(op)) as OpStats;
      const hist = [...s.statuses.entries()].sort((a, b) => a[0] - b[0]).map(([code, n]) => `${code}×${n}`).join(' ');
      return `  ${opKey(op).padEnd(58)} ${String(s.sent).padStart(5)} sent, ${String(s.systematic).padStart(3)} systematic of ${String(s.systematicTotal).padStart(4)}  ${hist}`;
    });
    console.log([
      `fuzz: ${sent} requests to ${operations.length} operations (of ${total} in the document, ${skipped} skipped) in ${fuzzSeconds.toFixed(1)} s`
        + ` (${Math.round(sent / fuzzSeconds)}/s); re-logins after a revoked session: platform ${relogins.platform}, tenant ${relogins.tenant};`
        + ` throw-away sessions used for sign-out: ${sparesUsed}; ${learningProbes} requests beforehand learnt values for ${templates.size} operations`,
      ...rows,
      'slowest operations (time their answers took, summed):',
      ...[...stats.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)
        .map(([key, st]) => `  ${key.padEnd(58)} ${(st.ms / 1000).toFixed(1).padStart(7)} s over ${st.sent} requests`),
      ...reloginCauses,
    ].join('\n'));
    const report = failures.report(SEED);

    // ------------------------------------------------------------ it was not vacuous, and the server survived
    const expected = ONLY ? quota * operations.length : REQUESTS;
    const uncovered = operations.filter((op) => (stats.get(opKey(op))?.sent ?? 0) < Math.min(quota, MIN_PER_OPERATION)).map(opKey);
    const neverPastAuth = operations.filter((op) => !stats.get(opKey(op))?.pastAuth).map(opKey);
    const answeredOk = operations.filter((op) => stats.get(opKey(op))?.ok).length;
    const vacuous = [
      ...(sent < expected ? [`only ${sent} requests sent, ${expected} expected`] : []),
      ...(uncovered.length ? [`operations not covered: ${uncovered.join(', ')}`] : []),
      ...(neverPastAuth.length ? [`operations that answered every request with valid auth with 401 (the fuzzer never got in): ${neverPastAuth.join(', ')}`] : []),
      ...(answeredOk ? [] : ['no operation ever answered 2xx: the requests never reach the handlers']),
      ...(health.statusCode === 200 ? [] : [`after the run the server no longer answers a plain list: ${health.statusCode} ${health.body.slice(0, 300)}`]),
      ...(ONLY || ownSeen >= 5 ? [] : [`the tenant's device was listed by ${ownSeen} lists: the ownership sweep did not reach the device screens`]),
    ];
    expect(leaks, `lists that answer the tenant devices not its own:\n${leaks.join('\n')}`).toEqual([]);
    expect(vacuous, `${vacuous.join('\n')}${failures.total ? `\n\n${report}` : ''}\n`).toEqual([]);

    // ------------------------------------------------------------ every defect, in one message
    expect(failures.total, `\n${report}\n`).toBe(0);
  }, TEST_TIMEOUT_MS);
});

function causeChain(err: Error): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let i = 0; e && i < 5; i++) {
    const x = e as { message?: unknown; code?: unknown; cause?: unknown; name?: unknown };
    const text = String(x.message ?? x).split(/\n\s*params:|\nparams:/)[0] ?? '';
    parts.push(`${typeof x.code === 'string' ? `[${x.code}] ` : ''}${text}`);
    e = x.cause;
  }
  return parts.reverse().join(' ⟵ ');
}
