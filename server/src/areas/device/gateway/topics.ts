import type { DownlinkKind, UplinkKind } from './types.js';

/**
 * Topic layout (docs/device-protocol.md): `{root}/up/{kind}/{cloudProductId}/{deviceName}` from devices,
 * `{root}/down/{kind}/{cloudProductId}/{deviceName}` to them. The root never starts with `$`: Mosquitto does
 * not hand `$…` topics to shared subscriptions.
 */
export const UPLINK_KINDS: readonly UplinkKind[] = ['property', 'event', 'ota', 'action', 'location'];
export const DOWNLINK_KINDS: readonly DownlinkKind[] = ['property', 'event', 'ota', 'action'];
/** `status`: online/offline messages, the presence of devices on an external broker (not an uplink kind) */
export type UpTopicKind = UplinkKind | 'status';
const UP_TOPIC_KINDS: ReadonlySet<string> = new Set<string>([...UPLINK_KINDS, 'status']);
const DOWN_TOPIC_KINDS: ReadonlySet<string> = new Set<string>(DOWNLINK_KINDS);

export const DEFAULT_TOPIC_ROOT = 'dev';
const ROOT = /^[A-Za-z0-9_-]{1,64}$/;
/** a cloud product id or device name: no topic separators or wildcards, no control characters */
const NAME = /^[A-Za-z0-9_.:@-]{1,64}$/;

export function isValidTopicRoot(root: string): boolean {
  return ROOT.test(root);
}

export function isValidName(name: string): boolean {
  return NAME.test(name);
}

export type ParsedTopic =
  | { direction: 'up'; kind: UpTopicKind; cloudProductId: string; deviceName: string }
  | { direction: 'down'; kind: DownlinkKind; cloudProductId: string; deviceName: string };

export function upTopic(root: string, kind: UpTopicKind, cloudProductId: string, deviceName: string): string {
  return `${root}/up/${kind}/${cloudProductId}/${deviceName}`;
}

export function downTopic(root: string, kind: DownlinkKind, cloudProductId: string, deviceName: string): string {
  return `${root}/down/${kind}/${cloudProductId}/${deviceName}`;
}

/** The uplink filter of the server's subscription, and each device's downlink filter. */
export const upFilter = (root: string) => `${root}/up/+/+/+`;
export const deviceDownFilter = (root: string, cloudProductId: string, deviceName: string) => `${root}/down/+/${cloudProductId}/${deviceName}`;

/** Parses a topic of this root; null for anything else (another root, unknown kind, wildcards, extra levels). */
export function parseTopic(root: string, topic: string): ParsedTopic | null {
  if (typeof topic !== 'string' || topic.length > 300) return null;
  const parts = topic.split('/');
  if (parts.length !== 5 || parts[0] !== root) return null;
  const [, direction, kind, p, d] = parts as [string, string, string, string, string];
  if (!isValidName(p) || !isValidName(d)) return null;
  if (direction === 'up' && UP_TOPIC_KINDS.has(kind)) return { direction, kind: kind as UpTopicKind, cloudProductId: p, deviceName: d };
  if (direction === 'down' && DOWN_TOPIC_KINDS.has(kind)) return { direction, kind: kind as DownlinkKind, cloudProductId: p, deviceName: d };
  return null;
}

/**
 * Whether a device may subscribe to this filter: its own downlinks only, all kinds (`+`) or one kind.
 */
export function isOwnDownFilter(root: string, filter: string, cloudProductId: string, deviceName: string): boolean {
  const parts = filter.split('/');
  return parts.length === 5 && parts[0] === root && parts[1] === 'down' && parts[3] === cloudProductId && parts[4] === deviceName
    && (parts[2] === '+' || DOWN_TOPIC_KINDS.has(parts[2] ?? ''));
}
