import { PLATFORM_TENANT } from '@console/contract';
import type { AppContext } from '../../core/context.js';
import { inTenant } from '../../core/db/index.js';
import { foldControlReplies } from './control.js';
import { foldDeviceEvents } from './events.js';
import { BACKGROUND_TIMEOUT_MS, OtaRunner, foldOtaReports } from './ota.js';
import { GATEWAY, OTA } from './services.js';
import { foldDeviceReports, foldPresence } from './status.js';

/**
 * What runs beside the API for devices: the gateway's reports folded into the device tables, and the OTA
 * scheduler. Started once the gateway (if any) is up; `close` stops the scheduler.
 */
export function startDeviceRuntime(ctx: AppContext, onError: (e: unknown) => void): { close(): Promise<void> } {
  // the folds are the devices' writes, not a caller's search: a busy database makes them slow, never cut (a batch
  // cut by the requests' statement limit would be lost)
  const platform = <T>(fn: Parameters<typeof inTenant<T>>[2]) => inTenant(ctx.db, { tenantId: PLATFORM_TENANT, timeoutMs: BACKGROUND_TIMEOUT_MS }, fn);
  const gw = ctx.services.find(GATEWAY);
  if (gw) {
    // what devices report is folded in one transaction a batch: OTA progress, the devices' state, their events (a
    // statement costs the server more than its rows; three transactions a batch were twice the statements). Events
    // are answered once stored, so the devices stop resending them (docs/device-protocol.md); a resent event (its
    // answer was lost) is stored again idempotently and answered again
    gw.onUplink(['ota', 'property', 'location', 'event'], async (batch) => {
      const ota = batch.filter((u) => u.kind === 'ota');
      const reports = batch.filter((u) => u.kind === 'property' || u.kind === 'location' || (u.kind === 'ota' && u.method === 'report_version'));
      const events = batch.filter((u) => u.kind === 'event');
      await platform(async (tx) => {
        if (ota.length) await foldOtaReports(tx, ota);
        if (reports.length) await foldDeviceReports(tx, reports);
        if (events.length) await foldDeviceEvents(tx, events);
      });
      await Promise.all(events.filter((u) => u.method === 'event_post' && u.clientToken).map((u) =>
        gw.send(u.device, 'event', { method: 'event_reply', clientToken: u.clientToken, params: { code: 0 } }).catch((e: unknown) => onError(e))));
    }, { repeats: ['event'] });
    gw.onPresence((batch) => platform((tx) => foldPresence(tx, batch)));
    // control rows belong to tenants: the replies are matched across them by their command's token
    gw.onUplink(['action'], (batch) => inTenant(ctx.db, { tenantId: PLATFORM_TENANT, allTenants: true, timeoutMs: BACKGROUND_TIMEOUT_MS }, (tx) => foldControlReplies(tx, batch)).then(() => undefined));
  }
  const runner = new OtaRunner(ctx, () => ctx.services.find(GATEWAY), onError);
  runner.start();
  ctx.services.provide(OTA, runner);
  return { close: () => runner.close() };
}
