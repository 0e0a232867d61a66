import { dictNameKey, isIdText, type Lang, t } from '@console/contract';
import type { AuthUser } from '../../context.js';
import { ioRoutes } from '@console/contract/io';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { requireUser } from '../../access.js';
import { fileAnswer } from '../../apiDocs.js';
import { badRequest } from '../../errors.js';
import { formatDateTime } from '../../time.js';
import { buildFilters, sortKeys } from '../filters.js';
import { CsvSheetWriter } from '../io/csvWriter.js';
import { attachment, exportSheetColumns, openExport, writeExport, XLSX_TYPE } from '../io/export.js';
import { exportCopyPlan } from '../io/exportCopy.js';
import { XlsxSheetWriter } from '../io/xlsxWriter.js';
import { readTenant, runAs } from '../mount/access.js';
import type { ResourceMount } from '../mount/resourceMount.js';

/**
 * What an export is of, for its file's name: the rows a filter on a reference names (a batch's devices: the batch
 * number), by the names the list answers beside those references.
 */
async function subjectOf(m: ResourceMount, filters: Record<string, unknown>, lang: Lang, user: AuthUser): Promise<string[]> {
  const refs = Object.entries(m.def.fields).filter(([, f]) => f.type === 'ref').flatMap(([name]) => {
    const v = filters[name] ?? filters[`${name}_equal`];
    return typeof v === 'string' && isIdText(v) ? [[name, v] as const] : [];
  });
  if (refs.length === 0) return [];
  const [named] = await m.present([Object.fromEntries(refs)], lang, user, { only: new Set(refs.map(([name]) => name)) });
  return refs.map(([name]) => named?.[dictNameKey(name)]).filter((n): n is string => typeof n === 'string' && n !== '');
}

/** The export's file types: the .xlsx (BladeX's, the default) and the CSV option (`?format=csv`). */
export const EXPORT_FORMATS = ['xlsx', 'csv'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];
const CSV_TYPE = 'text/csv; charset=utf-8';

function formatOf(value: unknown): ExportFormat {
  if (value === undefined || value === '') return 'xlsx';
  const format = typeof value === 'string' ? value.toLowerCase() : undefined;
  const known = EXPORT_FORMATS.find((f) => f === format);
  if (!known) throw badRequest('exportFormat', { format: String(value), formats: EXPORT_FORMATS.join(', ') });
  return known;
}

/**
 * Every row the list would show for the same filters, sort, tenant and data scope (not one page), as an .xlsx (or,
 * with `format=csv`, a CSV) streamed while it is written. The rows are read a chunk at a time in the list's order,
 * each chunk in a statement of its own (`openExport`: a keyset walk, or the ids first), the next one read while this
 * one is written, presented as the API answers them (wire formats, display names of dictionary codes and
 * references) and written to the sheet, waiting whenever the client reads slower than the sheet is written. No
 * transaction stays open while the client reads.
 */
async function exportRows(m: ResourceMount, req: FastifyRequest, reply: FastifyReply) {
  const { def, columns } = m;
  const user = readTenant(m, req, requireUser(req));
  const lang = req.lang;
  const { ascs, descs, current: _c, size: _s, format: asked, ...filters } = req.query as Record<string, unknown> & { ascs?: string; descs?: string };
  const format = formatOf(asked);
  const built = buildFilters(def, columns, filters, lang);
  const keys = sortKeys(def, columns, ascs, descs, lang);
  const { cols, wanted, dynamic } = await exportSheetColumns(m, user, filters, lang);
  // PostgreSQL presents the rows where it can (every column an expression): the CSV as it is, the .xlsx's cells
  const plan = await exportCopyPlan(m, user, cols, lang, dynamic);
  const source = await openExport(m, user, { built, keys, wanted, lang }, plan ? { copy: { plan, format: format === 'csv' ? 'csv' : 'xml' } } : {});

  const title = t(def.title, lang);
  // a definition that must scope the name further (a task a tenant may not see) names its exports itself
  const subject = m.hooks.exportName
    ? [await runAs(m, user, (tx) => m.hooks.exportName!(tx, user, filters, lang))].filter((n): n is string => !!n)
    : await subjectOf(m, filters, lang, user);
  const day = (formatDateTime(new Date()) ?? '').slice(0, 10);
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  const sheet = format === 'csv' ? new CsvSheetWriter(out) : new XlsxSheetWriter(out, title, cols.map((c) => ({ header: c.header, width: c.width })));
  writeExport(m, sheet, out, user, lang, source, cols, wanted).catch((e: unknown) => {
    if (out.destroyed) return; // the client went away
    req.log.error({ err: e }, `export of ${def.code} failed`);
    out.destroy(e instanceof Error ? e : new Error(String(e)));
  });
  reply.raw.on('close', () => {
    if (!out.writableFinished) out.destroy();
  });
  return reply
    .header('content-type', format === 'csv' ? CSV_TYPE : XLSX_TYPE)
    .header('content-disposition', attachment(`${[title, ...subject, day].join('-').replace(/[\\/:*?"<>|\r\n]+/g, '_')}.${format}`))
    .header('cache-control', 'no-store')
    .send(out);
}

/** `GET {path}/export` */
export function mountExport(app: FastifyInstance, m: ResourceMount): void {
  const { def } = m;
  const route = ioRoutes(def).export!;
  const query = z
    .object({
      ascs: z.string().max(500).optional(),
      descs: z.string().max(500).optional(),
      format: z.string().max(20).optional().describe('xlsx (the default) or csv: UTF-8 with a byte order mark, RFC 4180'),
    })
    .catchall(z.union([z.string().max(1000), z.array(z.string())]));

  app.get(route.path, {
    config: { access: { permission: route.permission }, fieldLabels: m.labels },
    schema: {
      tags: [def.path.split('/')[2] ?? 'resource'],
      summary: `${def.title.en}: export every matching row as .xlsx or CSV (the list's filters and sort)`,
      description: `Needs ${route.permission}. Answers an .xlsx download (${XLSX_TYPE}), or with format=csv a CSV (${CSV_TYPE}, with a byte order mark; `
        + "cells starting with = + - @ are prefixed with '); the token may come as ?blade-auth=bearer%20…",
      querystring: query,
      docsOnly: { response: { 200: fileAnswer('the .xlsx (or the CSV)', XLSX_TYPE) } },
    },
  }, (req, reply) => exportRows(m, req, reply));
}
