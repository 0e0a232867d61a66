import multipart from '@fastify/multipart';
import { API, msg, AVATAR_TYPES, Code, sizeText, type UploadedFile } from '@console/contract';
import { and, eq, sql } from 'drizzle-orm';
import { inList } from '../../core/db/bulk.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { brokenMultipart, UPLOAD_MAX_BYTES, type UploadKind, type UploadService } from '../../core/uploads.js';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { requireUser } from '../../core/access.js';
import { binary, multipartBody } from '../../core/apiDocs.js';
import type { AppContext } from '../../core/context.js';
import { type Executor, inTenant, type Tx } from '../../core/db/index.js';
import { envelopeOf, ok } from '../../core/envelope.js';
import { AppError, badRequest, notFound } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { amountBudget, type BudgetOwner, spendByUser } from '../../core/rateLimit.js';
import { type FileStorage, isStorageKey, newStorageKey } from '../../core/storage/index.js';
import { INLINE_TYPES, SNIFF_BYTES, type Sniffed, sniff } from '../../core/storage/sniff.js';
import type { OssStorages } from './storages.js';
import { attach } from './tables.js';

/** Upload limits per purpose; the type is decided by the content, never by the name or the browser's claim. */
const KINDS: Record<UploadKind, { maxBytes: number; accepts: (t: Sniffed | null) => boolean; refusal: 'avatarType' | 'imageType' | 'badRequest' }> = {
  avatar: { maxBytes: UPLOAD_MAX_BYTES.avatar, accepts: (t) => t !== null && (AVATAR_TYPES as readonly string[]).includes(t.contentType), refusal: 'avatarType' },
  image: { maxBytes: UPLOAD_MAX_BYTES.image, accepts: (t) => t !== null && t.contentType.startsWith('image/'), refusal: 'imageType' },
  file: { maxBytes: UPLOAD_MAX_BYTES.file, accepts: () => true, refusal: 'badRequest' },
};

const FILES_PREFIX = '/files/';
/** the longest original name a link carries (encoded); the register keeps the whole name for downloads */
const LINK_NAME_MAX = 300;

/** RFC 5987's encoding of a name (encodeURIComponent leaves ' ( ) * as they are, which links and headers may not hold) */
const encodeName = (name: string) => encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * A stored file's link: its storage key, then its original name, so every screen showing the link (forms,
 * lists, details) shows the name it was uploaded with: `/files/000000/20260101/3f….pdf/说明书.pdf`. A long name
 * is cut before its extension.
 */
export function fileLink(key: string, originalName: string): string {
  const dot = originalName.lastIndexOf('.');
  const ext = dot > 0 && originalName.length - dot <= 16 ? originalName.slice(dot) : '';
  let base = [...originalName.slice(0, originalName.length - ext.length).replace(/[/\\]/g, '_')];
  while (base.length > 1 && encodeName(base.join('') + ext).length > LINK_NAME_MAX) base = base.slice(0, -1);
  return `${FILES_PREFIX}${key}/${encodeName(base.join('') + ext)}`;
}

/** The storage key of a file path (`<key>` or `<key>/<name>`), or '' */
function keyOf(path: string): string {
  const key = path.split('/').slice(0, 3).join('/');
  return isStorageKey(key) ? key : '';
}

/** `attachment; filename="…"` (ASCII, for old clients) and `filename*=UTF-8''…` (RFC 5987: the name as uploaded, Chinese too). */
export function contentDisposition(disposition: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeName(name)}`;
}

function humanSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes / 1024} KB`;
}


/** The bytes of the tenant's live attachments (answered from the covering index ix_attach_tenant_size). */
async function usedBytes(tx: Tx, tenantId: string): Promise<number> {
  const [row] = await tx.select({ used: sql<string>`coalesce(sum(${attach.attachSize}), 0)` }).from(attach)
    .where(and(eq(attach.tenantId, tenantId), eq(attach.isDeleted, 0)));
  return Number(row?.used ?? 0);
}

const quotaExceeded = (used: number, quota: number) =>
  new AppError(Code.TOO_LARGE, 'storageQuotaExceeded', { used: sizeText(used), quota: sizeText(quota) });

/** Reads the stream until `n` bytes (or its end) and gives back those bytes and a stream of everything. */
async function peek(source: Readable, n: number): Promise<{ head: Buffer; whole: Readable }> {
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const taken: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < n) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    taken.push(next.value);
    size += next.value.length;
  }
  async function* all() {
    yield* taken;
    if (done) return;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  }
  return { head: Buffer.concat(taken).subarray(0, n), whole: Readable.from(all()) };
}

/** The source's bytes up to `cap`; past it the rest is read and dropped (the multipart body goes on) and `over` is set. */
function capped(source: Readable, cap: number, state: { over: boolean }): Readable {
  async function* upTo() {
    let size = 0;
    for await (const chunk of source as AsyncIterable<Buffer>) {
      if (state.over) continue;
      if (size + chunk.length > cap) {
        state.over = true;
        continue;
      }
      size += chunk.length;
      yield chunk;
    }
  }
  return Readable.from(upTo());
}

/** A safe extension from the original name for files whose content we do not recognise. */
function extensionOf(name: string): string {
  const ext = /\.([0-9A-Za-z]{1,8})$/.exec(name)?.[1]?.toLowerCase();
  return ext ?? 'bin';
}

/** A multipart body that cannot be read (no boundary, cut short, malformed) is the client's: a 400 (a storage failure stays itself). */
function brokenUpload(e: unknown): never {
  brokenMultipart(e);
}

async function fileOf(req: FastifyRequest, maxBytes: number) {
  if (!req.isMultipart()) throw badRequest('fileNotMultipart');
  const part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 5 }, throwFileSizeLimit: false }).catch(brokenUpload);
  if (!part || part.fieldname !== 'file') throw badRequest('fileNotMultipart');
  return part;
}

/**
 * Bounded uploads. Per user, a budget of files and of bytes per window in the kv store (shared through
 * Redis): the file is spent before any byte is stored, the bytes once they are stored. Per tenant, a storage
 * quota on the live attachments: a first check before the bytes (refuse at once when full, and stop the
 * stream where the quota would be passed), and the decisive one inside the insert transaction, under a
 * per-tenant advisory lock, so that parallel uploads are counted one after the other and cannot together
 * pass the quota. A refused upload leaves neither a file nor a row.
 */
export function createUploadService(ctx: AppContext, storages: OssStorages): UploadService {
  const limits = ctx.config.uploads;
  const fileRule = { name: 'upload-files', max: limits.userFiles, windowSeconds: limits.userWindowSeconds };
  const byteBudget = amountBudget(ctx, { name: 'upload-bytes', max: limits.userBytes, windowSeconds: limits.userWindowSeconds, unit: 1024 * 1024 });
  // the tenant row may carry its own quota one day; until then every tenant has the configured one (0: none)
  const quotaOf = (_tenantId: string) => limits.tenantQuotaBytes;

  const tooManyUploads = (seconds: number, retryAfter?: (seconds: number) => void) => {
    retryAfter?.(seconds);
    return new AppError(Code.TOO_MANY, 'uploadsTooMany', {
      files: limits.userFiles, size: sizeText(limits.userBytes), minutes: Math.round(limits.userWindowSeconds / 60), seconds,
    });
  };

  return {
    async store(user, part, kindName, lang, retryAfter) {
      const kind = KINDS[kindName];
      const owner: BudgetOwner = { tenantId: user.tenantId, userId: user.userId };
      const refuse = (e: AppError): never => {
        part.file.resume();
        throw e;
      };
      // the name is stored as text: a NUL in it is refused like a NUL in any other field (input.ts)
      if (part.filename.includes('\u0000')) refuse(badRequest('nulByte', { field: 'file' }, { file: msg('nulByte', lang, { field: 'file' }) }));
      const files = await spendByUser(ctx, owner, fileRule);
      if (!files.allowed) refuse(tooManyUploads(files.resetSeconds, retryAfter));
      const bytes = await byteBudget.left(owner);
      if (bytes.left <= 0) refuse(tooManyUploads(bytes.resetSeconds, retryAfter));
      const quota = quotaOf(user.tenantId);
      let room = Number.POSITIVE_INFINITY;
      if (quota > 0) {
        const used = await inTenant(ctx.db, { tenantId: user.tenantId }, (tx) => usedBytes(tx, user.tenantId));
        if (used >= quota) refuse(quotaExceeded(used, quota));
        room = quota - used;
      }

      // The stream stops at the tightest limit: the kind's size, the room left in the quota, the user's bytes.
      const cap = Math.min(kind.maxBytes, room, bytes.left);
      const over = { over: false };
      const { head, whole } = await peek(capped(part.file, cap, over), SNIFF_BYTES).catch(brokenUpload);
      const type = sniff(head);
      if (!kind.accepts(type)) {
        whole.resume();
        throw badRequest(kind.refusal);
      }
      const extension = type?.extension ?? extensionOf(part.filename);
      const key = newStorageKey(user.tenantId, extension);
      // the tenant's enabled object storage configuration (the local disk without one)
      const target = await inTenant(ctx.db, { tenantId: user.tenantId }, (tx) => storages.forUpload(tx, user.tenantId));
      const storage = target.storage;
      const stored = await storage.put(key, whole).catch(brokenUpload);
      // a file cut at the limit spends the bytes up to it, as if they had been kept
      await byteBudget.spend(owner, over.over ? cap : stored.size);
      if (over.over || part.file.truncated) {
        await storage.remove(key);
        if (cap === kind.maxBytes || part.file.truncated) throw new AppError(413, 'fileTooLarge', { max: humanSize(kind.maxBytes) });
        if (cap === room) throw quotaExceeded(quota - room, quota);
        throw tooManyUploads(bytes.resetSeconds, retryAfter);
      }
      if (stored.size === 0) {
        await storage.remove(key);
        throw badRequest('fileEmpty');
      }
      const originalName = (part.filename || `upload.${extension}`).slice(-500);
      const id = nextId();
      const link = fileLink(key, originalName);
      try {
        await inTenant(ctx.db, { tenantId: user.tenantId }, async (tx) => {
          if (quota > 0) {
            // One upload of the tenant at a time from here to the commit; the sum then includes every
            // upload committed before (READ COMMITTED: each statement sees what committed before it began).
            await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`attach-quota:${user.tenantId}`}))`);
            const used = await usedBytes(tx, user.tenantId);
            if (used + stored.size > quota) throw quotaExceeded(used, quota);
          }
          await tx.insert(attach).values({
            id, tenantId: user.tenantId, link, name: key, originalName, extension,
            contentType: type?.contentType ?? 'application/octet-stream', attachSize: stored.size, sha256: stored.sha256, md5: stored.md5,
            ossId: target.ossId, createUser: user.userId, createDept: user.deptId || null, updateUser: user.userId,
          });
        });
      } catch (e) {
        await storage.remove(key).catch(() => undefined);
        throw e;
      }
      return { link, domain: '', name: key, originalName, attachId: id };
    },

    async open(tenantId, link) {
      const key = link.startsWith(FILES_PREFIX) ? keyOf(link.slice(FILES_PREFIX.length)) : '';
      if (!key) return null;
      const [row] = await inTenant(ctx.db, { tenantId }, (tx) =>
        tx.select().from(attach).where(and(eq(attach.name, key), eq(attach.isDeleted, 0))));
      if (!row) return null;
      const object = await (await storages.forFile(ctx.db, row.ossId)).open(row.name);
      return object && { ...object, originalName: row.originalName, md5: row.md5 };
    },

    async discard(user, uploaded) {
      const [row] = await inTenant(ctx.db, { tenantId: user.tenantId }, (tx) =>
        tx.delete(attach).where(and(eq(attach.id, uploaded.attachId), eq(attach.tenantId, user.tenantId))).returning());
      if (row) await (await storages.forFile(ctx.db, row.ossId)).remove(row.name).catch(() => undefined);
    },

    async release(tx, tenantId, links) {
      const keys = links.flatMap((link) => (link.startsWith(FILES_PREFIX) ? [keyOf(link.slice(FILES_PREFIX.length))] : [])).filter(Boolean);
      if (keys.length === 0) return async () => undefined;
      const rows = await tx.update(attach).set({ isDeleted: 1 })
        .where(and(eq(attach.tenantId, tenantId), inList(attach.name, keys), eq(attach.isDeleted, 0)))
        .returning({ name: attach.name, ossId: attach.ossId });
      return () => removeStoredFiles(ctx.db, storages, rows);
    },
  };
}

/**
 * Deletes the bytes of attachments whose rows are gone (after their transaction committed): a storage that fails to
 * delete is logged, and never undoes the removal (the file is unreachable: its row is gone).
 */
export async function removeStoredFiles(db: Executor, storages: OssStorages, files: ReadonlyArray<{ name: string; ossId: string | null }>): Promise<void> {
  for (const f of files) {
    try {
      await (await storages.forFile(db, f.ossId)).remove(f.name);
    } catch (e) {
      console.error(`attachment ${f.name}: the stored file could not be deleted: ${(e as Error).message}`);
    }
  }
}

/** `put-file`: one file (multipart field "file") through the upload service. */
export async function registerFileRoutes(app: FastifyInstance, ctx: AppContext, uploads: UploadService, storages: OssStorages): Promise<void> {
  await app.register(async (scoped) => {
    await scoped.register(multipart, { limits: { fileSize: KINDS.file.maxBytes, files: 1, fields: 5, parts: 6 } });

    scoped.post(API.putFile, {
      config: { access: { permission: null }, title: { zh: '上传文件', en: 'Upload a file' } },
      schema: {
        tags: ['blade-resource'],
        summary: 'Upload one file (multipart field "file"); kind=avatar accepts jpg/png up to 500 KB, kind=image any image up to 5 MB, checked by content',
        querystring: z.object({ kind: z.enum(['avatar', 'image', 'file']).default('file') }).strict(),
        docsOnly: {
          ...multipartBody({ file: binary() }),
          response: {
            200: envelopeOf(z.object({ link: z.string(), domain: z.string(), name: z.string(), originalName: z.string(), attachId: z.string() })),
          },
        },
      },
    }, async (req, reply) => {
      const user = requireUser(req);
      const kind = (req.query as { kind: UploadKind }).kind;
      const part = await fileOf(req, UPLOAD_MAX_BYTES[kind]);
      const body: UploadedFile = await uploads.store(user, part, kind, req.lang, (seconds) => void reply.header('retry-after', String(seconds)));
      return ok(body, req.lang);
    });
  });

  // Uploaded files are read by <img> and links, which carry no token: the random 128-bit key is the
  // capability. Anything not shown inline is a download, and nothing served here may run script.
  app.get(`${FILES_PREFIX}*`, {
    config: { access: { public: true } },
    schema: { hide: true },
  }, async (req, reply) => {
    const key = keyOf((req.params as { '*': string })['*']);
    if (!key) throw notFound();
    const [row] = await ctx.db.select().from(attach).where(and(eq(attach.name, key), eq(attach.isDeleted, 0)));
    if (!row) throw notFound();
    return sendAttachment(reply, row, await storages.forFile(ctx.db, row.ossId), INLINE_TYPES.has(row.contentType) ? 'inline' : 'attachment');
  });
}

/**
 * Sends an attachment's bytes from the storage holding them (proxied from an S3 bucket): never run on the
 * console's origin (nosniff, a sandbox CSP), shown inline only when asked and safe.
 */
export async function sendAttachment(
  reply: FastifyReply, row: typeof attach.$inferSelect, storage: FileStorage, disposition: 'inline' | 'attachment',
  cache = 'public, max-age=31536000, immutable',
): Promise<FastifyReply> {
  const object = await storage.open(row.name);
  if (!object) throw notFound();
  return reply
    .header('content-type', row.contentType)
    .header('content-length', object.size)
    .header('content-disposition', contentDisposition(disposition, row.originalName))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', cache)
    .send(object.stream);
}
