/**
 * The device gateway's boundary: what it hands to the device modules (OTA, device state, control, events) and
 * what they may ask of it. The protocol itself (topics, payloads, QoS, credentials) is in docs/device-protocol.md.
 */

/** What a device's uplink is about: the `{kind}` segment of `{root}/up/{kind}/{cloudProductId}/{deviceName}`. */
export type UplinkKind = 'property' | 'event' | 'ota' | 'action' | 'location';

/** What a command to a device is about: the `{kind}` of `{root}/down/{kind}/{cloudProductId}/{deviceName}`. */
export type DownlinkKind = 'property' | 'event' | 'ota' | 'action';

/** A device as the gateway knows it once its credentials were checked. */
export interface DeviceIdentity {
  sn: string;
  productId: string;
  cloudVendor: number;
  cloudProductId: string;
  deviceName: string;
}

/** One accepted uplink message: authenticated, parsed, its envelope checked. */
export interface Uplink {
  device: DeviceIdentity;
  kind: UplinkKind;
  /** the envelope's `method` (report, event_post, report_progress, action_reply…) or, for OTA, its `type` */
  method: string;
  /** the device's id of this message (dedupe key with the SN); may be empty for QoS 0 property reports */
  clientToken: string;
  /** when the device says it happened (ms since epoch), already checked to be within the clock tolerance */
  timestamp: number;
  /** the envelope's `params` (OTA: its `report`) */
  params: Record<string, unknown>;
  /** when the gateway received it (ms since epoch) */
  receivedAt: number;
  /** a repeat of a recent message (same SN, kind and clientToken): only handlers that answer repeats get it */
  repeat?: true;
}

/** A device connecting or going away (keep-alive timeout included). */
export interface Presence {
  device: DeviceIdentity;
  online: boolean;
  at: number;
  /** the address it connected from (online only) */
  address?: string;
  /**
   * external broker: the clientToken of the signed presence message, which names the device's session; an
   * `offline` ends only the session it names (docs/device-protocol.md §7). Absent on the embedded broker, whose
   * presence comes from the connections themselves.
   */
  session?: string;
}

/**
 * Receives uplinks in batches (up to a few hundred, at least every ~100 ms while messages flow). A batch
 * handler writes them in a few statements, never one per message; it must be idempotent (QoS 1 delivers at least
 * once). When it throws, the gateway logs the error and the batch is dropped; the devices' own retries
 * (events and OTA progress are resent until answered) cover it.
 */
export type UplinkHandler = (batch: readonly Uplink[]) => Promise<void>;
export type PresenceHandler = (batch: readonly Presence[]) => Promise<void>;

export interface Gateway {
  /** how it runs: its own broker, another broker, or not at all */
  readonly mode: 'embedded' | 'external' | 'off';
  /** the port of the embedded broker once listening (0 until then; undefined when not embedded) */
  readonly port?: number;
  /**
   * registers a handler of every uplink of these kinds (several handlers may share a kind); with `repeats` it also
   * gets the repeats of recent messages (marked `repeat`) of its kinds (`true`) or of those named, to answer them again
   */
  onUplink(kinds: readonly UplinkKind[], handler: UplinkHandler, opts?: { repeats?: boolean | readonly UplinkKind[] }): void;
  onPresence(handler: PresenceHandler): void;
  /**
   * sends a command to a device (QoS 1, never retained), wherever it is connected (any instance): resolves once
   * handed to the broker; answers false when the gateway is off. The payload gets `timestamp` and a `clientToken`
   * when it has none, and the server's signature (docs/device-protocol.md), and is answered with that token.
   */
  send(device: Pick<DeviceIdentity, 'cloudProductId' | 'deviceName'>, kind: DownlinkKind, payload: Record<string, unknown>): Promise<string | false>;
  /** hands everything buffered to the handlers now and waits for them (tests, benches, shutdown) */
  flush(): Promise<void>;
  /** counters for benches, tests and health checks */
  stats(): GatewayStats;
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface GatewayStats {
  mode: Gateway['mode'];
  /** messages received from the broker, accepted into the buffer, and handed to handlers */
  received: number;
  accepted: number;
  flushed: number;
  /** refused messages by reason (bad_sign, unsigned, clock, duplicate, unknown_device, not_json…) */
  rejected: Record<string, number>;
  /** lost after acceptance: a failing handler's batch, or a buffer overflow */
  dropped: number;
  presence: number;
  handlerErrors: number;
  /** messages waiting in the buffer */
  buffered: number;
  /** devices connected to this instance's embedded broker (embedded mode only) */
  connected?: number;
  /** whether the client of the external broker is connected now (external mode only) */
  brokerConnected?: boolean;
  /**
   * connections the embedded port closed before they became devices: `connection_limit` (too many open, in total
   * or from one address), `connect_too_large` / `packet_too_large` (an announced length over the bound),
   * `not_connect` (a first packet other than CONNECT), `bad_length`
   */
  refusedConnections?: Record<string, number>;
}
