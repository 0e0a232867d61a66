import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { UpstreamError } from '../../core/errors.js';
import { type FileStorage, localDiskStorage } from '../../core/storage/index.js';

export interface S3Options {
  /** the service's address (MinIO, COS, OSS…); absent for AWS S3 itself */
  endpoint?: string | null;
  region?: string | null;
  bucket: string;
  accessKey: string;
  secretKey: string;
  /** where an upload waits until its size is known (S3 wants the length of a streamed body) */
  stagingDir: string;
  /** the agents every request goes through: guarded ones (core/outbound.ts), the endpoint being a tenant's */
  agents: { httpAgent: HttpAgent; httpsAgent: HttpsAgent };
}

type Sdk = typeof import('@aws-sdk/client-s3');

/** The SDK is large: it is loaded on the first use of an S3 configuration, never at start. */
let sdkLoading: Promise<Sdk> | null = null;
function loadSdk(): Promise<Sdk> {
  sdkLoading ??= import('@aws-sdk/client-s3');
  return sdkLoading;
}

/**
 * An S3 failure (the service cannot be reached or is refused, the bucket or the keys are wrong): the caller
 * gets the fixed "storage unavailable", the detail goes to the error log.
 */
export class StorageError extends UpstreamError {
  constructor(detail: string) {
    super('storageUnavailable', `storage: ${detail}`);
    this.name = 'StorageError';
  }
}

function describe(e: unknown): string {
  const err = e as { name?: string; message?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  const status = err.$metadata?.httpStatusCode;
  return [err.Code ?? err.name, status ? `HTTP ${status}` : '', err.message].filter(Boolean).join(' ').slice(0, 300);
}

function isMissing(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
}

/**
 * An S3-compatible store (AWS SDK v3) behind the FileStorage interface. Path-style addressing (MinIO and
 * most self-hosted services need it); checksums only where the operation requires them, which every
 * S3-compatible service understands. An upload is staged on the local disk first (bounded memory, and
 * hashed on the way as every upload is), then sent with its length.
 */
export function s3Storage(o: S3Options): FileStorage & { destroy(): void } {
  let client: S3Client | null = null;
  const staging = localDiskStorage(o.stagingDir);
  const connect = async (): Promise<{ sdk: Sdk; client: S3Client }> => {
    const sdk = await loadSdk();
    client ??= new sdk.S3Client({
      ...(o.endpoint ? { endpoint: o.endpoint } : {}),
      region: o.region || 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: o.accessKey, secretAccessKey: o.secretKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: { ...o.agents, connectionTimeout: 10_000 },
    });
    return { sdk, client };
  };
  return {
    async put(key, body: Readable) {
      const stored = await staging.put(key, body);
      try {
        const staged = await staging.open(key);
        if (!staged) throw new StorageError('staged upload vanished');
        const { sdk, client: s3 } = await connect();
        await s3.send(new sdk.PutObjectCommand({ Bucket: o.bucket, Key: key, Body: staged.stream, ContentLength: staged.size }))
          .catch((e: unknown) => {
            staged.stream.destroy();
            throw new StorageError(describe(e));
          });
        return stored;
      } finally {
        await staging.remove(key).catch(() => undefined);
      }
    },
    async open(key) {
      const { sdk, client: s3 } = await connect();
      try {
        const out = await s3.send(new sdk.GetObjectCommand({ Bucket: o.bucket, Key: key }));
        if (!out.Body) return null;
        return { stream: out.Body as Readable, size: Number(out.ContentLength ?? 0) };
      } catch (e) {
        if (isMissing(e)) return null;
        throw new StorageError(describe(e));
      }
    },
    async remove(key) {
      const { sdk, client: s3 } = await connect();
      await s3.send(new sdk.DeleteObjectCommand({ Bucket: o.bucket, Key: key })).catch((e: unknown) => {
        if (!isMissing(e)) throw new StorageError(describe(e));
      });
    },
    destroy() {
      client?.destroy();
      client = null;
    },
  };
}
