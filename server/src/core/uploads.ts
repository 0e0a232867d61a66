import { AVATAR_MAX_BYTES, IMAGE_MAX_BYTES, type Lang, type UploadedFile } from '@console/contract';
import type { Readable } from 'node:stream';
import type { AuthUser } from './context.js';
import type { Executor } from './db/index.js';
import { AppError, badRequest } from './errors.js';
import { serviceKey } from './services.js';

/** What an upload may be, decided by its content: an avatar (jpg/png), any image, or any file; each with its size limit. */
export type UploadKind = 'avatar' | 'image' | 'file';

/** the largest upload of each kind */
export const UPLOAD_MAX_BYTES: Record<UploadKind, number> = { avatar: AVATAR_MAX_BYTES, image: IMAGE_MAX_BYTES, file: 50 * 1024 * 1024 };

/** One file of a multipart body as @fastify/multipart gives it (the stream is read once). */
export interface UploadPart {
  file: Readable & { truncated?: boolean };
  filename: string;
}

/**
 * Stores uploaded files through the tenant's enabled object storage and registers them as attachments, within
 * the user's upload budget and the tenant's quota (the resource area provides it: `ctx.services.get(UPLOADS)`).
 */
export interface UploadService {
  /** stores the part (all of it or nothing) and answers its link; a refused upload throws an AppError */
  store(user: AuthUser, part: UploadPart, kind: UploadKind, lang: Lang, retryAfter?: (seconds: number) => void): Promise<UploadedFile>;
  /**
   * the bytes of a stored upload by its link (outside any transaction: it reads the register itself), or null
   * when the tenant has no such file
   */
  open(tenantId: string, link: string): Promise<{ stream: Readable; size: number; originalName: string; md5: string | null } | null>;
  /** takes back a stored upload whose record was then refused (its object and its attachment row) */
  discard(user: AuthUser, uploaded: UploadedFile): Promise<void>;
  /**
   * Removes the tenant's uploads of these links with the records naming them, in the caller's transaction (the
   * attachments leave the tenant's quota); answers the deletion of their stored bytes, to run once it committed.
   */
  release(tx: Executor, tenantId: string, links: readonly string[]): Promise<() => Promise<void>>;
}

/** file uploads (put-file, and the multipart submit of resources with file fields); the resource area provides them */
export const UPLOADS = serviceKey<UploadService>('uploads');

/** A multipart body that cannot be read (no boundary, cut short, malformed) is the client's: a 400 (a 413 stays one). */
export function brokenMultipart(e: unknown): never {
  if (e instanceof AppError) throw e;
  if ((e as { statusCode?: number }).statusCode === 413) throw e;
  throw badRequest('uploadBroken');
}
