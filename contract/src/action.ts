import { z } from 'zod';
import type { I18nText } from './i18n.js';
import { idListInput } from './ids.js';

/**
 * A call beyond CRUD (grant, enable, reset-password…), declared beside its resource: the server mounts it
 * with one helper (access, tenant, input validation, documented answer, API log) and the console calls it
 * typed (`callAction`). Parameters come from the query string, a form body or a JSON body alike (api.md §6).
 */
export interface ActionDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** the full API path */
  path: string;
  method: 'GET' | 'POST';
  /**
   * who may call it: a permission code (a menu or button code granted to the caller's roles), or null for
   * any signed-in user
   */
  permission: string | null;
  /**
   * other menus whose screens call it too, e.g. the user screen's form picks from the post options: their
   * holders may call it as well (only with a permission code)
   */
  alsoFor?: readonly string[];
  /** refuse callers outside tenant 000000 ('write'), or who are not its administrators ('admin') */
  platform?: 'write' | 'admin';
  title: I18nText;
  input: I;
  output: O;
}

export type ActionDefs = Record<string, ActionDef>;

export type ActionInput<A extends ActionDef> = z.input<A['input']>;
export type ActionOutput<A extends ActionDef> = z.output<A['output']>;

/** Declares the actions of the resource at `basePath`: each key is the last path segment unless `segment` says. */
export function defineActions<const D extends Record<string, Omit<ActionDef, 'path'> & { segment?: string }>>(
  basePath: string,
  defs: D,
): { [K in keyof D]: ActionDef<D[K]['input'], D[K]['output']> } {
  const out: Record<string, ActionDef> = {};
  for (const [key, { segment, ...def }] of Object.entries(defs)) out[key] = { ...def, path: `${basePath}/${segment ?? key}` };
  return out as { [K in keyof D]: ActionDef<D[K]['input'], D[K]['output']> };
}

/** An ids parameter of an action ('1,2' or an array), as a non-empty list. */
export const idsParamSchema = idListInput.transform((v) => (v === '' ? [] : v.split(','))).refine((ids) => ids.length > 0, { params: { kind: 'idsRequired' } });

/** The answer of most writes: `data: true`. */
export const okOutput = z.boolean();
