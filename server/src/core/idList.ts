import { type Lang, MAX_IDS_PER_CALL, msg } from '@console/contract';
import { badRequest } from './errors.js';
import { isId } from './ids.js';

/**
 * The `ids` parameter of an action (remove, mark read…): comma-joined or an array, from the query, a form
 * or a JSON body. Answers the distinct ids, or a 400 naming the problem: none given, too many, not an id.
 */
export function idsParam(raw: unknown, lang: Lang): string[] {
  const items = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' || typeof raw === 'number' ? String(raw).split(',') : [];
  const ids = [...new Set(items.map((s) => s.trim()).filter(Boolean))];
  if (ids.length === 0) throw badRequest('idsRequired', undefined, { ids: msg('idsRequired', lang) });
  if (ids.length > MAX_IDS_PER_CALL) throw badRequest('tooManyIds', { max: MAX_IDS_PER_CALL });
  const bad = ids.find((id) => !isId(id));
  if (bad) throw badRequest('badId', { field: bad }, { ids: msg('badId', lang, { field: bad }) });
  return ids;
}
