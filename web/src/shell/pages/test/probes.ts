import { API, type ServerStatus } from '@console/contract';
import { BUILD_VERSION } from '../../../buildVersion';

/**
 * The checks of the /test page. They call fetch directly rather than the API client: they measure the
 * transport itself (round-trip time, the Date header) and report failures on the page instead of toasts.
 */

export type ServerState = 'online' | 'offline' | 'failed';

export interface ServerProbe {
  state: ServerState;
  /** browser-measured round trip, ms */
  roundTripMs: number;
  status?: ServerStatus;
  /** server clock minus browser clock, ms (from the HTTP Date header); undefined without one */
  skewMs?: number;
  error?: string;
}

/**
 * Server clock minus browser clock. The Date header has one-second resolution and was written somewhere
 * within the round trip: compare its mid-second with the browser time halfway through the request.
 */
export function clockSkewMs(dateHeader: string | null, sentAt: number, roundTripMs: number): number | undefined {
  const server = dateHeader ? Date.parse(dateHeader) : NaN;
  if (Number.isNaN(server)) return undefined;
  return server + 500 - (sentAt + roundTripMs / 2);
}

export async function probeServer(): Promise<ServerProbe> {
  const sentAt = Date.now();
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(API.serverStatus, { cache: 'no-store', headers: { Accept: 'application/json' } });
  } catch (err) {
    return { state: 'offline', roundTripMs: performance.now() - started, error: err instanceof Error ? err.message : String(err) };
  }
  const roundTripMs = performance.now() - started;
  const skewMs = clockSkewMs(res.headers.get('Date'), sentAt, roundTripMs);
  try {
    const body = (await res.json()) as { code?: number; msg?: string; data?: ServerStatus };
    if (res.ok && body.code === 200 && body.data) {
      return { state: body.data.online ? 'online' : 'offline', roundTripMs, status: body.data, skewMs };
    }
    return { state: 'failed', roundTripMs, skewMs, error: body.msg || `HTTP ${res.status}` };
  } catch {
    return { state: 'failed', roundTripMs, skewMs, error: `HTTP ${res.status} ${res.statusText}`.trim() };
  }
}

export interface VersionProbe {
  deployed: string | null;
  bundle: string;
  current: boolean;
}

export async function probeVersion(): Promise<VersionProbe> {
  const res = await fetch(API.version, { cache: 'no-store' });
  if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`.trim());
  const { version } = (await res.json()) as { version?: unknown };
  const deployed = typeof version === 'string' ? version : null;
  return { deployed, bundle: BUILD_VERSION, current: deployed === BUILD_VERSION };
}

/** Differences under this are measurement noise (the Date header counts whole seconds). */
export const SKEW_NOISE_MS = 1000;
/** Beyond this the token-age check (browser clock) and the server's expiry (server clock) disagree noticeably. */
export const SKEW_WARN_MS = 30_000;
