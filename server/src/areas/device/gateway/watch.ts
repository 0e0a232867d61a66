import type { AppContext } from '../../../core/context.js';
import type { Gateway } from './types.js';

/**
 * The gateway in readiness (an external broker must be connected; the embedded one is this process) and in the
 * metrics: the device messages received, accepted, handed to the handlers, refused by reason, and dropped.
 */
export function watchGateway(ctx: AppContext, gateway: Gateway): void {
  if (gateway.mode === 'off') return;
  if (gateway.mode === 'external') {
    ctx.health.add('broker', async () => {
      if (!gateway.stats().brokerConnected) throw Object.assign(new Error('broker unreachable'), { code: 'BROKER_UNREACHABLE' });
    });
  }
  ctx.metrics.gauge({
    name: 'device_messages', help: 'Device messages since start: received, accepted, handed on, dropped after acceptance, refused by reason, buffered now',
    labelNames: ['state', 'reason'] as const,
    collect: (g) => {
      const s = gateway.stats();
      g.set({ state: 'received', reason: '' }, s.received);
      g.set({ state: 'accepted', reason: '' }, s.accepted);
      g.set({ state: 'flushed', reason: '' }, s.flushed);
      g.set({ state: 'dropped', reason: '' }, s.dropped);
      g.set({ state: 'buffered', reason: '' }, s.buffered);
      for (const [reason, n] of Object.entries(s.rejected)) g.set({ state: 'rejected', reason }, n);
    },
  });
  ctx.metrics.gauge({
    name: 'device_connections', help: 'Devices connected to this instance\'s embedded broker, or 1/0 for the external broker\'s link',
    collect: (g) => {
      const s = gateway.stats();
      g.set(s.connected ?? (s.brokerConnected ? 1 : 0));
    },
  });
}
