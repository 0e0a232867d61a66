import type { ActionDef, ActionInput, ActionOutput } from '@console/contract/action';
import { request, type Query, type QueryValue, type RequestOptions } from './client';

/** Options of one call, beside its input. */
export type ActionCallOptions = Pick<RequestOptions, 'silent' | 'signal' | 'headers'>;

function queryValue(value: unknown): QueryValue {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  // ids ('1,2' on the wire, BladeX), and any list of plain values
  if (Array.isArray(value)) return value.map(String).join(',');
  return JSON.stringify(value);
}

/** An action's input as a query string: plain values as they are, lists comma-joined, empty ones left out. */
export function actionQuery(input: unknown): Query {
  const query: Query = {};
  if (typeof input !== 'object' || input === null) return query;
  for (const [key, value] of Object.entries(input)) {
    const v = queryValue(value);
    if (v !== undefined) query[key] = v;
  }
  return query;
}

/**
 * Calls a typed action of the contract (`defineActions`): a GET sends its input as the query string, a
 * POST as a JSON body, to `action.path`; resolves with the answer's `data`, typed by the action's output
 * schema. The answer is not parsed with zod here (zod stays out of the console's code): the server
 * validates the input and documents the output.
 */
export function callAction<A extends ActionDef>(action: A, input: ActionInput<A>, opts: ActionCallOptions = {}): Promise<ActionOutput<A>> {
  if (action.method === 'GET') return request<ActionOutput<A>>(action.path, { ...opts, query: actionQuery(input) });
  return request<ActionOutput<A>>(action.path, { ...opts, method: 'POST', json: input ?? {} });
}
