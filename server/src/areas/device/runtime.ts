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
    gw.onUplink(['ota'], (batch) => platform((tx) => foldOtaReports(tx, batch)).then(() => undefined));
    gw.onUplink(['property', 'location', 'ota'], async (batch) => {
      const relevant = batch.filter((u) => u.kind !== 'ota' || u.method === 'report_version');
      if (relevant.length) await platform((tx) => foldDeviceReports(tx, relevant));
    });
    gw.onPresence((batch) => platform((tx) => foldPresence(tx, batch)));
    // events are answered once stored, so the devices stop resending them (docs/device-protocol.md); a resent
    // event (its answer was lost) is stored again idempotently and answered again
    gw.onUplink(['event'], async (batch) => {
      await platform((tx) => foldDeviceEvents(tx, batch));
      await Promise.all(batch.filter((u) => u.method === 'event_post' && u.clientToken).map((u) =>
        gw.send(u.device, 'event', { method: 'event_reply', clientToken: u.clientToken, params: { code: 0 } }).catch((e: unknown) => onError(e))));
    }, { repeats: true });
    // control rows belong to tenants: the replies are matched across them by their command's token
    gw.onUplink(['action'], (batch) => inTenant(ctx.db, { tenantId: PLATFORM_TENANT, allTenants: true, timeoutMs: BACKGROUND_TIMEOUT_MS }, (tx) => foldControlReplies(tx, batch)).then(() => undefined));
  }
  const runner = new OtaRunner(ctx, () => ctx.services.find(GATEWAY), onError);
  runner.start();
  ctx.services.provide(OTA, runner);
  return { close: () => runner.close() };
}
