import { OSS_CATEGORY, RESOURCE_STATUS } from '@console/contract/areas/resource/index';
import { and, eq } from 'drizzle-orm';
import { join } from 'node:path';
import type { AppContext } from '../../core/context.js';
import type { Executor } from '../../core/db/index.js';
import { outboundAgents } from '../../core/outbound.js';
import { secretBox } from '../../core/secrets.js';
import type { FileStorage } from '../../core/storage/index.js';
import { s3Storage } from './s3.js';
import { oss } from './tables.js';

type OssRow = typeof oss.$inferSelect;

/** Where a tenant's uploads go, and where a stored file is read from. */
export interface StorageChoice {
  storage: FileStorage;
  /** the configuration (blade_oss.id) recorded on the attachment; null: the server's local disk */
  ossId: string | null;
}

/**
 * The file storages of the object storage configurations. Uploads go through the tenant's enabled
 * configuration (the local disk when none is, or when it is of the local kind); a file is read from the
 * configuration its attachment names, even after another was enabled or that one was removed. S3 clients
 * are kept per configuration version (its update time), so an edited configuration gets a new client.
 * The endpoint is a tenant's: every connection goes through the outbound guard (core/outbound.ts).
 */
export class OssStorages {
  private readonly clients = new Map<string, { version: number; storage: FileStorage & { destroy(): void } }>();
  private readonly box;

  constructor(private readonly ctx: AppContext) {
    this.box = secretBox(ctx.config.encryptionKey);
  }

  private storageOf(row: OssRow | undefined): FileStorage {
    if (!row || row.category !== OSS_CATEGORY.s3) return this.ctx.storage;
    const version = row.updateTime.getTime();
    const hit = this.clients.get(row.id);
    if (hit && hit.version === version) return hit.storage;
    hit?.storage.destroy();
    const storage = s3Storage({
      endpoint: row.endpoint, region: row.region, bucket: row.bucketName ?? '',
      accessKey: this.box.open(row.accessKey) ?? '', secretKey: this.box.open(row.secretKey) ?? '',
      stagingDir: join(this.ctx.config.dataDir, 'staging'),
      agents: outboundAgents(this.ctx.config.outboundAllow),
    });
    this.clients.set(row.id, { version, storage });
    return storage;
  }

  /** The storage of the tenant's enabled configuration (read in the caller's tenant transaction). */
  async forUpload(tx: Executor, tenantId: string): Promise<StorageChoice> {
    const [row] = await tx.select().from(oss)
      .where(and(eq(oss.tenantId, tenantId), eq(oss.status, RESOURCE_STATUS.enabled), eq(oss.isDeleted, 0))).limit(1);
    if (!row || row.category !== OSS_CATEGORY.s3) return { storage: this.ctx.storage, ossId: row?.id ?? null };
    return { storage: this.storageOf(row), ossId: row.id };
  }

  /** The storage holding an attachment (its configuration even if removed since; the local disk for none). */
  async forFile(tx: Executor, ossId: string | null): Promise<FileStorage> {
    if (!ossId) return this.ctx.storage;
    const [row] = await tx.select().from(oss).where(eq(oss.id, ossId)).limit(1);
    return this.storageOf(row);
  }

  close(): void {
    for (const { storage } of this.clients.values()) storage.destroy();
    this.clients.clear();
  }
}
