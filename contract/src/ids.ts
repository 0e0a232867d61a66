import { z } from 'zod';

/** Ids are 64-bit integers, written as decimal strings on the wire. */
export const MAX_ID = 9223372036854775807n;
export function isIdText(v: unknown): v is string {
  return typeof v === 'string' && /^\d{1,19}$/.test(v) && BigInt(v) <= MAX_ID;
}

/** An id as clients send it: a decimal string or a (safe) number. */
export const idInput = z.union([z.string().trim().refine(isIdText), z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)]).transform(String);

/** A list of ids as clients send it (BladeX: '1,2'; JSON clients: ['1','2']), normalised to '1,2' without repeats. */
export const idListInput = z
  .union([z.string(), z.array(z.union([z.string(), z.number()]))])
  .transform((v) => [...new Set((Array.isArray(v) ? v.map(String) : v.split(',')).map((s) => s.trim()).filter(Boolean))])
  .refine((ids) => ids.every(isIdText))
  .transform((ids) => ids.join(','));
