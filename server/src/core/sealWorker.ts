import { Worker } from 'node:worker_threads';

/**
 * `seal` (secrets.ts) of many values in a worker thread: an import of 100,000 certificates seals as many secrets
 * (a cipher each, about 6 µs), which in the request thread took a fifth of the import's time; here they are
 * sealed beside the reading and checking of the next rows. The same format: `v1:<iv>:<tag>:<ciphertext>`,
 * AES-256-GCM, a random 12-byte IV per value (test/seal-worker.test.ts opens them with `unseal`).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createCipheriv, randomBytes } = require('node:crypto');
const key = Buffer.from(workerData.key);
let ivPool = Buffer.alloc(0);
function freshIv() {
  if (ivPool.length < 12) ivPool = randomBytes(12 * 1024);
  const iv = ivPool.subarray(0, 12);
  ivPool = ivPool.subarray(12);
  return iv;
}
function seal(plain) {
  const iv = freshIv();
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return 'v1:' + iv.toString('base64url') + ':' + cipher.getAuthTag().toString('base64url') + ':' + body.toString('base64url');
}
parentPort.on('message', (m) => {
  try {
    parentPort.postMessage({ id: m.id, sealed: m.plains.map(seal) });
  } catch (e) {
    parentPort.postMessage({ id: m.id, error: String(e && e.message || e) });
  }
});
`;

export class SealWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (sealed: string[]) => void; reject: (e: Error) => void }>();
  private nextId = 1;

  constructor(key: Buffer) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { key: new Uint8Array(key) } });
    this.worker.on('message', (m: { id: number; sealed?: string[]; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.sealed) p.resolve(m.sealed);
      else p.reject(new Error(m.error ?? 'sealing failed'));
    });
    const failAll = (e: Error) => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    this.worker.on('error', failAll);
    this.worker.on('exit', (code) => failAll(new Error(`the sealing worker stopped (exit code ${code})`)));
    // an idle worker keeps no process alive
    this.worker.unref();
  }

  /** each value sealed, in order */
  seal(plains: string[]): Promise<string[]> {
    if (plains.length === 0) return Promise.resolve([]);
    const id = this.nextId++;
    return new Promise<string[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, plains });
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
