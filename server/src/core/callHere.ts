import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

/**
 * Another call of this server on the caller's behalf (their token, their client, their language): its own
 * transaction, permission checks, validation and hooks. Its refusal is the caller's answer, fields included.
 */
export async function callHere<T>(app: FastifyInstance, req: FastifyRequest, url: string, payload: Record<string, unknown>): Promise<T> {
  const token = req.headers['blade-auth'] ?? (req.query as Record<string, unknown> | undefined)?.['blade-auth'];
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const name of ['authorization', 'tenant-id', 'accept-language', 'user-agent']) {
    const v = req.headers[name];
    if (typeof v === 'string') headers[name] = v;
  }
  if (typeof token === 'string') headers['blade-auth'] = token;
  const res = await app.inject({ method: 'POST', url, headers, payload });
  const body = res.json() as { code: number; msg: string; data: T };
  if (res.statusCode !== 200) throw new AppError(res.statusCode, 'composedCallFailed', { detail: body.msg }, body.data as Record<string, string> | undefined);
  return body.data;
}
