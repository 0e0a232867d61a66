import multipart from '@fastify/multipart';
import { API, AVATAR_MAX_BYTES, AVATAR_TYPES, type UploadedFile } from '@console/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { requireUser } from '../../core/access.js';
import type { AppContext } from '../../core/context.js';
import { inTenant, schema } from '../../core/db/index.js';
import { ok } from '../../core/envelope.js';
import { AppError, badRequest, notFound } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { isStorageKey, newStorageKey } from '../../core/storage/index.js';
import { INLINE_TYPES, SNIFF_BYTES, type Sniffed, sniff } from '../../core/storage/sniff.js';

/** Upload limits per purpose; the type is decided by the content, never by the name or the browser's claim. */
const KINDS = {
  avatar: { maxBytes: AVATAR_MAX_BYTES, accepts: (t: Sniffed | null) => t !== null && (AVATAR_TYPES as readonly string[]).includes(t.contentType), refusal: 'avatarType' as const },
  file: { maxBytes: 50 * 1024 * 1024, accepts: () => true, refusal: 'badRequest' as const },
};

const FILES_PREFIX = '/files/';

function humanSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes / 1024} KB`;
}

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

/** A safe extension from the original name for files whose content we do not recognise. */
function extensionOf(name: string): string {
  const ext = /\.([0-9A-Za-z]{1,8})$/.exec(name)?.[1]?.toLowerCase();
  return ext ?? 'bin';
}

async function fileOf(req: FastifyRequest, maxBytes: number) {
  if (!req.isMultipart()) throw badRequest('fileNotMultipart');
  const part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 5 }, throwFileSizeLimit: false });
  if (!part || part.fieldname !== 'file') throw badRequest('fileNotMultipart');
  return part;
}

export async function registerFileRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scoped) => {
    await scoped.register(multipart, { limits: { fileSize: KINDS.file.maxBytes, files: 1, fields: 5, parts: 6 } });

    scoped.post(API.putFile, {
      config: { access: { permission: null }, title: 'upload a file' },
      schema: {
        tags: ['blade-resource'],
        summary: 'Upload one file (multipart field "file"); kind=avatar accepts jpg/png up to 500 KB, checked by content',
        querystring: z.object({ kind: z.enum(['avatar', 'file']).default('file') }).strict(),
      },
    }, async (req) => {
      const user = requireUser(req);
      const kind = KINDS[(req.query as { kind: keyof typeof KINDS }).kind];
      const part = await fileOf(req, kind.maxBytes);
      const { head, whole } = await peek(part.file, SNIFF_BYTES);
      const type = sniff(head);
      if (!kind.accepts(type)) {
        part.file.resume();
        throw badRequest(kind.refusal);
      }
      const extension = type?.extension ?? extensionOf(part.filename);
      const key = newStorageKey(user.tenantId, extension);
      const stored = await ctx.storage.put(key, whole);
      if (part.file.truncated) {
        await ctx.storage.remove(key);
        throw new AppError(413, 'fileTooLarge', { max: humanSize(kind.maxBytes) });
      }
      if (stored.size === 0) {
        await ctx.storage.remove(key);
        throw badRequest('fileEmpty');
      }
      const originalName = (part.filename || `upload.${extension}`).slice(-500);
      const id = nextId();
      const link = FILES_PREFIX + key;
      try {
        await inTenant(ctx.db, { tenantId: user.tenantId }, (tx) => tx.insert(schema.attach).values({
          id, tenantId: user.tenantId, link, name: key, originalName, extension,
          contentType: type?.contentType ?? 'application/octet-stream', attachSize: stored.size, sha256: stored.sha256,
          createUser: user.userId, createDept: user.deptId || null, updateUser: user.userId,
        }));
      } catch (e) {
        await ctx.storage.remove(key);
        throw e;
      }
      const body: UploadedFile = { link, domain: '', name: key, originalName, attachId: id };
      return ok(body, req.lang);
    });
  });

  // Uploaded files are read by <img> and links, which carry no token: the random 128-bit key is the
  // capability. Anything not shown inline is a download, and nothing served here may run script.
  app.get(`${FILES_PREFIX}*`, {
    config: { access: { public: true } },
    schema: { hide: true },
  }, async (req, reply) => {
    const key = (req.params as { '*': string })['*'];
    if (!isStorageKey(key)) throw notFound();
    const [row] = await ctx.db.select().from(schema.attach).where(and(eq(schema.attach.name, key), eq(schema.attach.isDeleted, 0)));
    const object = row ? await ctx.storage.open(key) : null;
    if (!row || !object) throw notFound();
    const disposition = INLINE_TYPES.has(row.contentType) ? 'inline' : 'attachment';
    return reply
      .header('content-type', row.contentType)
      .header('content-length', object.size)
      .header('content-disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(row.originalName)}`)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(object.stream);
  });
}
