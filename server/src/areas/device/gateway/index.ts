import type { FeatureModule } from '../../../core/area.js';
import { mountSimulatorSessions } from './sessions.js';

/** The device gateway's routes (the gateway itself is created by the server: server.ts, ctx.gateway). */
export const deviceGatewayFeature: FeatureModule = {
  name: 'deviceGateway',
  routes: (app, ctx) => mountSimulatorSessions(app, ctx),
};
