import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { PLATFORM_TENANT } from '@console/contract';
import { burnBundle, STATION_API_PATH, stationResource } from '@console/contract/areas/production/index';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { JSON_OR_FORM } from '../../core/apiDocs.js';
import type { AppContext } from '../../core/context.js';
import { type Executor, inTenant } from '../../core/db/index.js';
import { envelopeOf, ok } from '../../core/envelope.js';
import { AppError, fieldError, forbidden, notFound, unauthorized } from '../../core/errors.js';
import { nextId } from '../../core/ids.js';
import { mountAction, parseInput } from '../../core/resource/actions.js';
import { secretBox } from '../../core/secrets.js';
import { formatDateTime } from '../../core/time.js';
import { deviceUnlockSecret } from './unlockSecret.js';
import { batch, burnRecord, cert, factory, factoryDevice, station } from './tables.js';

/**
 * The burn stations' channel (docs/device-protocol.md §10.1): a station signs in with its own key and takes,
 * for one device of its factory's batches, what it burns into the device: the cloud certificate's credentials
 * and the lock's emergency-code secret. The only answer of the server that carries either in clear.
 */

const BURN_STATION = 1;
const CANCELLED_BATCH = 4;
/** allocated or burned: a certificate a device may carry */
const LIVE_CERT_STATES = [2, 3];
const BURNED = 3;
const SN = /^[A-Z0-9]{4,32}$/;
const snLabel = { zh: 'SN', en: 'SN' };
const burnInput = z.object({ sn: z.string().trim().toUpperCase().regex(SN) });

const keyHash = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** `Authorization: Station <code>:<key>` (the key is base64url, so the last colon ends the code) */
function stationCredentials(req: FastifyRequest): { code: string; key: string } {
  const m = /^Station\s+(\S{1,200})$/i.exec(String(req.headers.authorization ?? '').trim());
  const sep = m?.[1]!.lastIndexOf(':') ?? -1;
  if (!m || sep <= 0) throw unauthorized('stationKeyMissing');
  return { code: m[1]!.slice(0, sep), key: m[1]!.slice(sep + 1) };
}

async function signedInStation(tx: Executor, req: FastifyRequest) {
  const { code, key } = stationCredentials(req);
  const [st] = await tx.select({ id: station.id, code: station.stationCode, type: station.stationType, factoryId: station.factoryId, keyHash: station.keyHash })
    .from(station).where(and(eq(station.stationCode, code), eq(station.isDeleted, 0)));
  const given = Buffer.from(keyHash(key), 'hex');
  const stored = Buffer.from(st?.keyHash ?? '', 'hex');
  if (!st || stored.length !== given.length || !timingSafeEqual(stored, given)) throw unauthorized('stationKeyInvalid');
  if (st.type !== BURN_STATION) throw forbidden('stationNotBurn', { code: st.code });
  return st;
}

export function registerStationChannel(app: FastifyInstance, ctx: AppContext): void {
  const box = secretBox(ctx.config.encryptionKey);

  mountAction(app, ctx, stationResource.actions.issueKey, async ({ id }, { tx, user }) => {
    const key = randomBytes(32).toString('base64url');
    const now = new Date();
    const [hit] = await tx.update(station).set({ keyHash: keyHash(key), keyTime: now, updateUser: user.userId, updateTime: now })
      .where(and(eq(station.id, id), eq(station.isDeleted, 0))).returning({ code: station.stationCode });
    if (!hit) throw notFound();
    return { stationCode: hit.code, key, keyTime: formatDateTime(now) ?? '' };
  });

  app.post(`${STATION_API_PATH}/burn-bundle`, {
    // the station's own credential, checked below; every caller without one shares the public budget per address
    config: { access: { public: true }, title: { zh: '工位领取烧录数据', en: 'Station: take the burning data' }, fieldLabels: { sn: snLabel } },
    schema: {
      tags: ['ymy-ipc'],
      summary: 'A burn station takes one device\'s certificate and emergency secret (Authorization: Station <code>:<key>)',
      response: { 200: envelopeOf(burnBundle) },
      docsOnly: { body: burnInput, consumes: JSON_OR_FORM },
    },
  }, async (req, reply) => {
    const lang = req.lang;
    const bundle = await inTenant(ctx.db, { tenantId: PLATFORM_TENANT }, async (tx) => {
      const st = await signedInStation(tx, req);
      const { sn } = parseInput(burnInput, req.body && typeof req.body === 'object' ? req.body : {}, lang, { sn: snLabel });
      const [d] = await tx.select({
        id: factoryDevice.id, batchId: factoryDevice.batchId, certificateId: factoryDevice.certificateId, batchNo: batch.batchNo, batchState: batch.state,
      }).from(factoryDevice).innerJoin(batch, and(eq(batch.id, factoryDevice.batchId), eq(batch.isDeleted, 0)))
        .where(and(eq(factoryDevice.sn, sn), eq(batch.factoryId, st.factoryId)));
      if (!d) {
        const [f] = await tx.select({ name: factory.factoryName }).from(factory).where(eq(factory.id, st.factoryId));
        throw fieldError('burnDeviceNotOfStation', lang, 'sn', { sn, factory: f?.name ?? st.factoryId });
      }
      if (d.batchState === CANCELLED_BATCH) throw new AppError(400, 'burnBatchCancelled', { batchNo: d.batchNo });
      if (!d.certificateId) throw new AppError(400, 'burnNoCertificate', { sn, batchNo: d.batchNo });
      const [c] = await tx.select().from(cert).where(and(eq(cert.id, d.certificateId), eq(cert.isDeleted, 0)));
      if (!c || !LIVE_CERT_STATES.includes(c.state)) throw new AppError(400, 'burnCertificateRevoked', { sn });

      const now = new Date();
      await tx.update(factoryDevice).set({ stationId: st.id, burnTime: now }).where(eq(factoryDevice.id, d.id));
      if (c.state !== BURNED) await tx.update(cert).set({ state: BURNED, updateTime: now }).where(eq(cert.id, c.id));
      await tx.update(station).set({ lastSeenTime: now }).where(eq(station.id, st.id));
      await tx.insert(burnRecord).values({
        id: nextId(), stationId: st.id, deviceSn: sn, batchId: d.batchId, certificateId: c.id, remoteIp: req.ip.slice(0, 64), createTime: now,
      });
      return {
        sn, batchNo: d.batchNo, cloudVendor: c.cloudVendor, cloudProductId: c.cloudProductId, deviceName: c.deviceName,
        deviceSecret: box.open(c.deviceSecret), certificate: c.certificate, privateKey: box.open(c.privateKey),
        emergencySecret: deviceUnlockSecret(ctx.config.encryptionKey, sn).toString('hex'), emergencyScheme: 'EU1' as const,
        burnTime: formatDateTime(now) ?? '',
      };
    });
    void reply.header('cache-control', 'no-store');
    return ok(bundle, lang);
  });
}
