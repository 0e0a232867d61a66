import { type Lang, type ResourceDef, t } from '@console/contract';
import { ioRoutes } from '@console/contract/io';
import { and, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { requireUser } from '../../access.js';
import { fileAnswer } from '../../apiDocs.js';
import type { AppContext, AuthUser } from '../../context.js';
import { badRequest } from '../../errors.js';
import { formatDateTime } from '../../time.js';
import { buildFilters, buildOrder, type ColumnMap, unindexed } from '../filters.js';
import { inList } from '../../db/bulk.js';
import type { MountedResource } from '../registry.js';
import type { ReferenceNames } from '../refs.js';
import { exportColumns } from './cells.js';
import { type XlsxValue, XlsxSheetWriter } from './xlsxWriter.js';
import type { EngineRules, Row } from './index.js';

/** An Excel sheet holds 1,048,576 rows; an export stops well before. */
export const EXPORT_MAX_ROWS = 1_000_000;
/** rows read (and written) per chunk: one short statement each, so other requests run between them */
export const EXPORT_CHUNK = 5000;

type ExportColumn = ReturnType<typeof exportColumns>[number];

/** A presented value as a cell: text, numbers and flags as they are, anything else as its text. */
function cellOf(v: unknown): XlsxValue {
  if (v === null || v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The dynamic columns (`def.dynamicColumns`) the list's filters name, as export columns of the json field's values. */
async function dynamicExportColumns(spec: NonNullable<ResourceDef['dynamicColumns']>, rules: EngineRules, user: AuthUser, filters: Record<string, unknown>, lang: Lang): Promise<ExportColumn[]> {
  const by = Object.fromEntries(spec.by.filter((k) => typeof filters[k] === 'string' && filters[k] !== '').map((k) => [k, String(filters[k])]));
  if (Object.keys(by).length === 0) return [];
  const found = await rules.run(user, (tx) => rules.hooks.dynamicColumns!(tx, user, by, lang));
  return found.map((c) => ({
    name: `${spec.field}.${c.key}`,
    header: c.label,
    width: Math.max(10, Math.min(40, c.label.length * 2 + 4)),
    value: (rec: Record<string, unknown>) => {
      const v = (rec[spec.field] as Record<string, unknown> | null | undefined)?.[c.key];
      return v === undefined || v === null ? null : typeof v === 'object' ? JSON.stringify(v) : v;
    },
  }));
}

/** The ids of a comma-joined text, `size` at a time, without splitting the whole text at once. */
export function* idChunks(text: string, size: number): Generator<string[], undefined> {
  let at = 0;
  while (at < text.length) {
    const chunk: string[] = [];
    while (chunk.length < size && at < text.length) {
      const comma = text.indexOf(',', at);
      const end = comma === -1 ? text.length : comma;
      chunk.push(text.slice(at, end));
      at = end + 1;
    }
    yield chunk;
  }
  return undefined;
}

/** `attachment; filename*=UTF-8''<title>-<yyyy-MM-dd>.xlsx` (RFC 5987; the title may be Chinese). */
export function attachment(name: string): string {
  return `attachment; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * `GET {path}/export`: every row the list would show for the same filters, sort, tenant and data scope (not
 * one page), as an .xlsx streamed while it is written. The matching ids are taken first, in the list's
 * order, in one short statement (a snapshot: ids only, about 50 bytes a row); then the rows are read
 * 5,000 ids at a time, each chunk in a statement of its own (the next one read while this one is written), presented as the API answers them (wire
 * formats, display names of dictionary codes and references) and written to the sheet, waiting whenever
 * the client reads slower than the sheet is written. No transaction stays open while the client reads.
 */
export function mountExport(app: FastifyInstance, ctx: AppContext, mounted: MountedResource, rules: EngineRules): void {
  const { def, table, columns } = mounted;
  const route = ioRoutes(def).export!;
  const id = columns.id!;
  const query = z
    .object({ ascs: z.string().max(500).optional(), descs: z.string().max(500).optional() })
    .catchall(z.union([z.string().max(1000), z.array(z.string())]));

  app.get(route.path, {
    config: { access: { permission: route.permission }, fieldLabels: rules.labels },
    schema: {
      tags: [def.path.split('/')[2] ?? 'resource'],
      summary: `${def.title.en}: export every matching row as .xlsx (the list's filters and sort)`,
      description: `Needs ${route.permission}. Answers an .xlsx download (${XLSX_TYPE}); the token may come as ?blade-auth=bearer%20…`,
      querystring: query,
      docsOnly: { response: { 200: fileAnswer('the .xlsx', XLSX_TYPE) } },
    },
  }, async (req, reply) => {
    const user = rules.readTenant(req, requireUser(req));
    const lang = req.lang;
    const { ascs, descs, current: _c, size: _s, ...filters } = req.query as Record<string, unknown> & { ascs?: string; descs?: string };
    const built = buildFilters(def, columns as ColumnMap, filters, lang);
    const order = buildOrder(def, columns as ColumnMap, ascs, descs, lang);
    // the ids in the list's order as one comma-joined text: 20 MB for a million rows, where as many row
    // objects would take five times that. The aggregate reads the sorted, limited subquery in its order (a
    // Limit over the sort: PostgreSQL feeds an aggregate its input as it comes); a second sort by a row
    // number costs half a second more for a million rows. test/production.test.ts checks the order.
    const select = () => rules.run(user, async (tx) => {
      await tx.execute(sql`select set_config('work_mem', '64MB', true)`); // the sort of a million keys stays in memory
      const sorted = tx.select({ id }).from(table)
        .where(and(...(await rules.visibleTo(tx, user)), ...built.conditions)).orderBy(...order).limit(EXPORT_MAX_ROWS + 1).as('sorted');
      const [row] = await tx.select({ ids: sql<string | null>`string_agg(${sorted.id}::text, ',')`, count: sql<number>`count(*)::int` }).from(sorted);
      return { text: row?.ids ?? '', count: Number(row?.count ?? 0) };
    });
    const found = unindexed(built) ? await ctx.heavyQueries.run(select) : await select();
    if (found.count > EXPORT_MAX_ROWS) throw badRequest('exportTooManyRows', { max: EXPORT_MAX_ROWS });
    const ids = idChunks(found.text, EXPORT_CHUNK);

    const title = t(def.title, lang);
    const day = (formatDateTime(new Date()) ?? '').slice(0, 10);
    const out = new PassThrough({ highWaterMark: 256 * 1024 });
    const cols = exportColumns(def, lang);
    // only the columns written (and the id): a third of the work of reading whole rows
    const wanted = Object.fromEntries(['id', ...cols.map((c) => c.name)].map((name) => [name, columns[name]!]));
    const dynamic = def.dynamicColumns && rules.hooks.dynamicColumns ? await dynamicExportColumns(def.dynamicColumns, rules, user, filters, lang) : [];
    if (dynamic.length) {
      wanted[def.dynamicColumns!.field] = columns[def.dynamicColumns!.field]!;
      cols.push(...dynamic);
    }

    const write = async () => {
      const sheet = new XlsxSheetWriter(out, title, cols.map((c) => ({ header: c.header, width: c.width })));
      await sheet.addRows([cols.map((c) => c.header)]);
      const read = (chunk: string[]) => {
        const rows = rules.run(user, async (tx) => {
          const found = await tx.select(wanted).from(table).where(and(inList(id, chunk), ...(await rules.visibleTo(tx, user)))) as Row[];
          await rules.hooks.shown?.(tx, found, user);
          return found;
        });
        rows.catch(() => undefined); // awaited below; a failure while the previous chunk is written is not unhandled
        return rows;
      };
      const names: ReferenceNames = new Map();
      const written = new Set(Object.keys(wanted));
      // the next chunk is read while this one is written; the writer waits whenever the client reads slower
      let chunk = ids.next().value;
      let next = chunk ? read(chunk) : undefined;
      while (chunk) {
        const rows = await next!;
        const following = ids.next().value;
        next = following ? read(following) : undefined;
        const byId = new Map(rows.map((r) => [String(r.id), r]));
        const ordered = chunk.map((k) => byId.get(k)).filter((r): r is Row => r !== undefined); // deleted meanwhile: left out
        const records = await mounted.present(ordered, lang, user, { names, only: written });
        await sheet.addRows(records.map((rec) => cols.map((c) => cellOf(c.value(rec)))));
        if (out.destroyed) return;
        chunk = following;
      }
      await sheet.finish();
      out.end();
    };
    write().catch((e: unknown) => {
      if (out.destroyed) return; // the client went away
      req.log.error({ err: e }, `export of ${def.code} failed`);
      out.destroy(e instanceof Error ? e : new Error(String(e)));
    });
    reply.raw.on('close', () => {
      if (!out.writableFinished) out.destroy();
    });
    return reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', attachment(`${title}-${day}.xlsx`))
      .header('cache-control', 'no-store')
      .send(out);
  });
}
