/**
 * Load generation for starvation.ts: plain node:http requests over keep-alive agents (one agent per
 * kind of client, so the clients never queue behind each other's sockets), closed loops that call one
 * request after the other until a deadline, and an open-loop probe that fires every `everyMs`.
 */
import http from 'node:http';

export interface Reply {
  status: number;
  body: string;
}

export interface Target {
  port: number;
  host: string;
}

/** One request; rejects on a network error or after timeoutMs. */
export function request(
  target: Target, agent: http.Agent, method: string, path: string, headers: Record<string, string>, timeoutMs: number, body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.host, port: target.port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error(`no answer in ${timeoutMs} ms`), { code: 'TIMEOUT' })), timeoutMs);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end(body);
  });
}

/** What one call of a client came to: `key` groups answers in the report (e.g. "200", "429", "ECONNRESET"). */
export interface Outcome {
  ok: boolean;
  key: string;
  /** a short text for the report, e.g. the message of a refusal */
  note?: string;
}

export interface Sample {
  /** performance.now() at send and at answer */
  start: number;
  end: number;
  ok: boolean;
  key: string;
}

export type Call = () => Promise<Outcome>;

function failure(e: unknown): Outcome {
  const code = (e as { code?: string }).code ?? (e as Error).message ?? String(e);
  return { ok: false, key: code };
}

/** Per key, the first note seen (to quote a refusal's message once). */
export type Notes = Map<string, string>;

/** Calls `call` one after the other until `deadline` (performance.now()); the last call may end after it. */
export async function closedLoop(call: Call, deadline: number, out: Sample[], notes: Notes): Promise<void> {
  while (performance.now() < deadline) {
    const start = performance.now();
    const o = await call().catch(failure);
    out.push({ start, end: performance.now(), ok: o.ok, key: o.key });
    if (o.note && !notes.has(o.key)) notes.set(o.key, o.note);
  }
}

/**
 * Fires `call` every `everyMs` until `deadline`, without waiting for earlier answers (a frozen server
 * shows as a run of slow answers, not as one), with at most `maxOutstanding` calls open.
 */
export async function openLoop(call: Call, everyMs: number, deadline: number, out: Sample[], notes: Notes, maxOutstanding = 200): Promise<void> {
  const open = new Set<Promise<void>>();
  let skipped = 0;
  while (performance.now() < deadline) {
    if (open.size < maxOutstanding) {
      const start = performance.now();
      const p: Promise<void> = call().catch(failure).then((o) => {
        out.push({ start, end: performance.now(), ok: o.ok, key: o.key });
        if (o.note && !notes.has(o.key)) notes.set(o.key, o.note);
        open.delete(p);
      });
      open.add(p);
    } else {
      skipped++;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  await Promise.all(open);
  if (skipped) notes.set('skipped', `${skipped} probes not sent (${maxOutstanding} open)`);
}

/** Counts of samples per key, most frequent first: "200: 412, 429: 3". */
export function tally(samples: Sample[]): Array<[string, number]> {
  const m = new Map<string, number>();
  for (const s of samples) m.set(s.key, (m.get(s.key) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1]);
}
