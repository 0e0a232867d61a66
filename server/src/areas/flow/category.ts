import { dictKeyOf, type Lang, prefixedDictKey } from '@console/contract';
import { flowModelResource } from '@console/contract/areas/flow/index';
import type { AppContext } from '../../core/context.js';
import { badRequest } from '../../core/errors.js';

/** the dictionary of process categories; an item's remark names its business form (BladeX's flow routes) */
export const FLOW_DICT = 'flow';

const categoryField = flowModelResource.fields.category;

/** A category of the `flow` dictionary as stored (`flow_1`) from either form: `flow_1` (Saber) or `1`. */
export const categoryOfKey = (value: string): string => prefixedDictKey(FLOW_DICT, dictKeyOf(categoryField, value));

/**
 * The category a deployment is given (model deploy, deploy-upload), as stored: `flow_<dictKey>`, whether Saber sent
 * `flow_1` or the console `1`; blank is none. A category the dictionary lacks is refused, naming it.
 */
export async function givenCategory(ctx: Pick<AppContext, 'dicts'>, raw: string | null | undefined, lang: Lang): Promise<string | undefined> {
  const value = raw?.trim();
  if (!value) return undefined;
  if (!(await ctx.dicts.labels(FLOW_DICT, lang)).has(dictKeyOf(categoryField, value))) throw badRequest('flowCategoryUnknown', { category: value.slice(0, 64) });
  return categoryOfKey(value);
}
