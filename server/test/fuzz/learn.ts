/**
 * Learns, before fuzzing, a set of parameter values each operation accepts: the fuzzer sends the
 * operation nothing, reads the fields its 400 names (`data: { field: message }`), and tries a few
 * candidate values per field until the field is no longer named. The fuzzer then mutates one value of
 * such a valid request at a time, so its hostile values reach the handler and the database instead of
 * stopping at the first "required" check.
 */
import { createHash } from 'node:crypto';
import type { Operation } from './openapi.js';

export type Template = Record<string, unknown>;

export interface Probe {
  (op: Operation, where: 'query' | 'body', values: Template): Promise<{ status: number; body: unknown }>;
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** Candidate values: the document's own (enum), the hints by name, then generic ones; unique strings get a counter. */
function candidates(op: Operation, field: string, hints: Record<string, readonly string[]>, n: number): unknown[] {
  const spec = [...op.query, ...op.bodyProps].find((p) => p.name === field);
  return [
    ...(spec?.enum ?? []), ...(hints[field] ?? []),
    `fuzz-${n}`, '1', 1, '2024-01-01 00:00:00', `fuzz${n}@example.com`, '13800138000', md5(`fuzz-${n}`), '000000', 0, true, ['1'], 'zh',
  ];
}

function fieldsNamed(body: unknown): string[] {
  const data = body && typeof body === 'object' ? (body as { data?: unknown }).data : undefined;
  return data && typeof data === 'object' && !Array.isArray(data) ? Object.keys(data) : [];
}

export async function learnTemplate(
  op: Operation, probe: Probe, hints: Record<string, readonly string[]>, maxProbes = 80,
): Promise<{ template?: Template; probes: number; accepted: boolean }> {
  const where = op.method === 'GET' ? 'query' : 'body';
  if (where === 'body' && !op.bodyProps.length && !op.bodyTypes.some((t) => t.includes('json'))) return { probes: 0, accepted: false };
  let probes = 0;
  const template: Template = {};
  let res = await probe(op, where, template);
  probes++;
  // the next candidate to try per field: a field named again (a later business check) resumes its list
  const next = new Map<string, number>();
  let counter = 0;
  while (res.status === 400 && probes < maxProbes) {
    const field = fieldsNamed(res.body).find((f) => (next.get(f) ?? 0) < candidates(op, f, hints, 0).length);
    if (field === undefined) break;
    const list = candidates(op, field, hints, counter++);
    const i = next.get(field) ?? 0;
    next.set(field, i + 1);
    const attempt = { ...template, [field]: list[i] };
    const answer = await probe(op, where, attempt);
    probes++;
    if (answer.status !== 400 || !fieldsNamed(answer.body).includes(field)) {
      template[field] = list[i];
      res = answer;
    }
  }
  return { template: Object.keys(template).length || res.status < 300 ? template : undefined, probes, accepted: res.status < 300 };
}
