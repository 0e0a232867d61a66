import { Code, type Lang, type MessageKey, msg, type R } from '@console/contract';
import { z } from 'zod';

export function ok<T>(data: T, lang: Lang, key: MessageKey = 'ok'): R<T> {
  return { code: Code.OK, success: true, data, msg: msg(key, lang) };
}

export function failure(code: number, message: string, data: unknown = null): R<unknown> {
  return { code, success: false, data, msg: message };
}

/** Response schema of an envelope around `data`, for OpenAPI and serialisation. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number(), success: z.boolean(), data, msg: z.string() });
}

export function pageOf<T extends z.ZodType>(record: T) {
  return z.object({
    records: z.array(record),
    total: z.number(),
    size: z.number(),
    current: z.number(),
    pages: z.number(),
    /** false when total is an estimate (lists larger than the exact-count limit) */
    totalExact: z.boolean().optional(),
  });
}

export const errorEnvelope = envelopeOf(z.unknown());
