import { type ActionOutput } from '@console/contract';
import { deviceGatewayActions, MAX_SIMULATOR_SNS } from '@console/contract/areas/device/index';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../core/context.js';
import { badRequest, forbidden } from '../../../core/errors.js';
import { mountAction } from '../../../core/resource/actions.js';
import { secretBox } from '../../../core/secrets.js';
import { batch, cert, factoryDevice } from '../../production/index.js';
import { GATEWAY } from '../services.js';
import { sessionKey, tencentCredentials } from './credentials.js';
import { certsBySn, toDeviceKey } from './deviceKeys.js';

type Sessions = ActionOutput<typeof deviceGatewayActions.sessions>;
const SESSION_TTL_SEC = 24 * 3600;

/**
 * `POST /api/omc-device/simulator/sessions`: connect credentials and session keys of live devices for the fleet
 * simulator, so simulated devices sign like real ones while the device keys stay on the server.
 */
export function mountSimulatorSessions(app: FastifyInstance, ctx: AppContext): void {
  const box = secretBox(ctx.config.encryptionKey);
  mountAction(app, ctx, deviceGatewayActions.sessions, async (input, { tx }) => {
    if (!ctx.config.deviceSimulator) throw forbidden('simulatorDisabled');
    const asked = [...new Set((input.sns ?? '').split(',').map((s) => s.trim().toUpperCase()).filter(Boolean))];
    if ((!asked.length && !input.batchNo && !input.count) || asked.length > MAX_SIMULATOR_SNS) throw badRequest('simulatorInput', { max: MAX_SIMULATOR_SNS });
    const unknown: string[] = [];
    let sns = asked;
    if (!asked.length && !input.batchNo && input.count) {
      const rows = await tx.select({ sn: cert.deviceSn }).from(cert)
        .where(and(inArray(cert.state, [2, 3]), eq(cert.isDeleted, 0), isNotNull(cert.deviceSn))).orderBy(cert.deviceSn).limit(input.count);
      sns = rows.map((r) => r.sn!);
    }
    if (input.batchNo) {
      const rows = await tx.select({ sn: factoryDevice.sn }).from(factoryDevice).innerJoin(batch, eq(batch.id, factoryDevice.batchId))
        .where(and(eq(batch.batchNo, input.batchNo), eq(batch.isDeleted, 0))).orderBy(factoryDevice.sn);
      if (!rows.length) unknown.push(input.batchNo);
      const inBatch = rows.map((r) => r.sn);
      sns = asked.length ? asked.filter((sn) => inBatch.includes(sn)) : inBatch;
      unknown.push(...asked.filter((sn) => !inBatch.includes(sn)));
    }
    const found = new Map<string, Sessions['sessions'][number]>();
    const gateway = ctx.services.find(GATEWAY);
    const topicRoot = gateway?.topicRoot ?? ctx.config.mqtt.topicRoot;
    const mqttUrl = gateway?.deviceUrl() ?? null;
    for (let i = 0; i < sns.length; i += 1000) {
      for (const row of await certsBySn(tx, sns.slice(i, i + 1000))) {
        const dk = toDeviceKey(row, box);
        if (!dk) continue;
        const c = tencentCredentials(row.cloudProductId, row.deviceName, dk.key, { ttlSec: SESSION_TTL_SEC });
        found.set(row.sn, {
          sn: row.sn, clientId: c.clientId, username: c.username, password: c.password, sessionKey: sessionKey(dk.key, c.username).toString('hex'),
          cloudProductId: row.cloudProductId, deviceName: row.deviceName, topicRoot, mqttUrl,
        });
      }
    }
    unknown.push(...sns.filter((sn) => !found.has(sn)));
    return { sessions: sns.flatMap((sn) => found.get(sn) ?? []), unknown };
  });
}
