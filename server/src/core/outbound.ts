import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent as HttpAgent, type AgentOptions, type ClientRequestArgs } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { isIP, isIPv4, isIPv6 } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * Outbound calls to addresses a tenant gives (an object storage endpoint today; payment and webhooks
 * later) must not reach the server's own network: loopback, private, link-local, cloud metadata,
 * CGNAT, multicast, unspecified, and those written as IPv4-mapped or NAT64 IPv6. Checked twice: when the
 * address is saved (a literal address or a well-known internal name, as a field error) and when
 * connecting, on the addresses the name resolves to at that moment, so a name that resolves elsewhere
 * later (DNS rebinding) gets nowhere. The operator may list internal hosts that are meant to be reached
 * (OUTBOUND_ALLOW_HOSTS: names, addresses, CIDR ranges).
 */

interface Range { bytes: number[]; prefix: number; what: string }

/** What the operator lets through although internal. */
export interface OutboundAllowList {
  /** host names, lower case without a trailing dot; `*.example.internal` entries as `.example.internal` */
  names: string[];
  ranges: Array<{ bytes: number[]; prefix: number }>;
}

export const NO_ALLOWANCE: OutboundAllowList = { names: [], ranges: [] };

function ipv4Bytes(text: string): number[] | null {
  if (!isIPv4(text)) return null;
  return text.split('.').map(Number);
}

function ipv6Bytes(text: string): number[] | null {
  if (!isIPv6(text)) return null;
  let s = text.split('%')[0]!;
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4Bytes(tail);
    if (!v4) return null;
    s = `${s.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const [head, rest] = s.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  if (groups.length !== 8) return null;
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

/** The bytes of an IP address (4 or 16), brackets and a zone allowed; null when it is not one. */
export function ipBytes(address: string): number[] | null {
  const text = address.replace(/^\[(.*)\]$/, '$1');
  return ipv4Bytes(text) ?? ipv6Bytes(text);
}

function range(cidr: string, what: string): Range {
  const [address, prefix] = cidr.split('/') as [string, string];
  return { bytes: ipBytes(address)!, prefix: Number(prefix), what };
}

function inRange(bytes: number[], r: { bytes: number[]; prefix: number }): boolean {
  if (bytes.length !== r.bytes.length) return false;
  for (let bit = 0; bit < r.prefix; bit += 8) {
    const take = Math.min(8, r.prefix - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[bit / 8]! & mask) !== (r.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

const IPV4_INTERNAL: Range[] = [
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'carrier-grade NAT (cloud metadata such as 100.100.100.200)'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local (cloud metadata 169.254.169.254)'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'IETF protocol assignments'),
  range('192.0.2.0/24', 'documentation'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved or broadcast'),
];

const IPV6_INTERNAL: Range[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::/96', 'IPv4-compatible'),
  range('64:ff9b:1::/48', 'local NAT64'),
  range('100::/64', 'discard'),
  range('2001::/32', 'Teredo'),
  range('2001:db8::/32', 'documentation'),
  range('fc00::/7', 'unique local (cloud metadata fd00:ec2::254)'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
];

/** IPv6 forms that carry an IPv4 address: the IPv4 address decides. */
const EMBEDDED_V4: Array<{ range: Range; at: number }> = [
  { range: range('::ffff:0:0/96', 'IPv4-mapped'), at: 12 },
  { range: range('64:ff9b::/96', 'NAT64'), at: 12 },
  { range: range('2002::/16', '6to4'), at: 2 },
];

/** The IPv4 address an IPv6 one stands for (mapped, NAT64, 6to4), else the address itself. */
function effective(bytes: number[]): { bytes: number[]; via?: string } {
  if (bytes.length === 16) {
    for (const e of EMBEDDED_V4) if (inRange(bytes, e.range)) return { bytes: bytes.slice(e.at, e.at + 4), via: e.range.what };
  }
  return { bytes };
}

/** Why an IP address is internal (its range's name), or null for a public address or not an address. */
export function internalAddress(address: string): string | null {
  const raw = ipBytes(address);
  if (!raw) return null;
  const { bytes, via } = effective(raw);
  const hit = (bytes.length === 4 ? IPV4_INTERNAL : IPV6_INTERNAL).find((r) => inRange(bytes, r));
  if (!hit) return null;
  return via ? `${hit.what}, written ${via}` : hit.what;
}

const INTERNAL_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);
const INTERNAL_SUFFIXES = ['.localhost', '.internal', '.local', '.localdomain', '.home.arpa'];

/** A host name written as the resolver sees it: lower case, no brackets, no trailing dot. */
function hostOf(host: string): string {
  return host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

function nameAllowed(host: string, allow: OutboundAllowList): boolean {
  return allow.names.some((n) => (n.startsWith('.') ? host.endsWith(n) : host === n));
}

function addressAllowed(address: string, allow: OutboundAllowList): boolean {
  const raw = ipBytes(address);
  if (!raw) return false;
  const candidates = [raw, effective(raw).bytes];
  return allow.ranges.some((r) => candidates.some((b) => inRange(b, r)));
}

/** Why a host (a name or an address, as written) is internal before any resolution, or null. */
export function internalHost(host: string, allow: OutboundAllowList): string | null {
  const h = hostOf(host);
  if (nameAllowed(h, allow)) return null;
  if (isIP(h)) return addressAllowed(h, allow) ? null : internalAddress(h);
  if (INTERNAL_NAMES.has(h) || INTERNAL_SUFFIXES.some((s) => h.endsWith(s))) return 'an internal name';
  return null;
}

/**
 * The save-time check of a URL a tenant gives: why it points inside (the host and the reason), or null.
 * The URL parser writes odd spellings of IPv4 (decimal, hex, octal, short) as dotted quads first.
 */
export function internalUrl(url: string, allow: OutboundAllowList): { host: string; reason: string } | null {
  let host: string;
  try {
    host = new URL(url.trim()).hostname;
  } catch {
    return null;
  }
  const reason = internalHost(host, allow);
  return reason ? { host: hostOf(host), reason } : null;
}

/** A connection the guard refused: the host, the address it stands for and why. */
export class OutboundRefused extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
  constructor(readonly host: string, readonly address: string, readonly reason: string) {
    super(`outbound connection refused: ${host}${address && address !== host ? ` resolves to ${address}` : ''}, ${reason} (list it in OUTBOUND_ALLOW_HOSTS to allow it)`);
    this.name = 'OutboundRefused';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** dns.lookup's shape, with all addresses; tests pass their own resolver. */
export type Resolve = (host: string, options: LookupOptions & { all: true }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (host, options, callback) => dnsLookup(host, options, callback);

/** A `lookup` for net.connect that answers only addresses the guard lets through (all of a name's, or none). */
export function guardedLookup(allow: OutboundAllowList, resolve: Resolve = systemResolve) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (!nameAllowed(hostOf(hostname), allow)) {
        for (const a of addresses) {
          const reason = addressAllowed(a.address, allow) ? null : internalAddress(a.address);
          if (reason) return callback(new OutboundRefused(hostname, a.address, reason), []);
        }
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

type CreateConnection = (options: ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void) => Duplex | null | undefined;

/** Wraps an agent's createConnection: a literal address is checked here (net.connect skips the lookup for it). */
function guarded(base: CreateConnection, allow: OutboundAllowList, lookup: ReturnType<typeof guardedLookup>): CreateConnection {
  return function (this: unknown, options, callback) {
    const host = hostOf(String(options.host ?? options.hostname ?? 'localhost'));
    if (isIP(host) && !nameAllowed(host, allow) && !addressAllowed(host, allow)) {
      const reason = internalAddress(host);
      if (reason) {
        process.nextTick(() => callback?.(new OutboundRefused(host, host, reason), undefined as never));
        return undefined;
      }
    }
    return base.call(this, { ...options, lookup } as ClientRequestArgs, callback);
  };
}

/**
 * HTTP and HTTPS agents (keep-alive) whose every connection goes through the guard; one pair per client,
 * as a client destroys its agents when it is closed.
 */
export function outboundAgents(allow: OutboundAllowList, options: { resolve?: Resolve; agent?: AgentOptions } = {}): { httpAgent: HttpAgent; httpsAgent: HttpsAgent } {
  const lookup = guardedLookup(allow, options.resolve);
  const agentOptions: AgentOptions = { keepAlive: true, maxSockets: 50, ...options.agent };
  const httpAgent = new HttpAgent(agentOptions);
  const httpsAgent = new HttpsAgent(agentOptions);
  httpAgent.createConnection = guarded(httpAgent.createConnection.bind(httpAgent), allow, lookup);
  httpsAgent.createConnection = guarded(httpsAgent.createConnection.bind(httpsAgent), allow, lookup);
  return { httpAgent, httpsAgent };
}

/**
 * OUTBOUND_ALLOW_HOSTS: comma-separated host names (`minio.internal`, `*.storage.internal`), IP addresses
 * and CIDR ranges (`10.0.8.0/24`, `fd00:1::/64`) outbound calls may reach although internal.
 */
export function parseAllowList(raw: string | undefined): OutboundAllowList {
  const allow: OutboundAllowList = { names: [], ranges: [] };
  for (const entry of (raw ?? '').split(',').map((e) => e.trim()).filter(Boolean)) {
    const bad = () => new Error(`OUTBOUND_ALLOW_HOSTS: "${entry}" is neither a host name, an IP address nor a CIDR range (10.0.0.0/8)`);
    const [address, prefixText, extra] = entry.split('/');
    const bytes = ipBytes(address!);
    if (bytes) {
      if (extra !== undefined) throw bad();
      const max = bytes.length * 8;
      const prefix = prefixText === undefined ? max : Number(prefixText);
      if (!/^\d{1,3}$/.test(prefixText ?? '0') || prefix > max) throw bad();
      allow.ranges.push({ bytes, prefix });
      continue;
    }
    const name = hostOf(entry);
    const wildcard = name.startsWith('*.');
    const bare = wildcard ? name.slice(2) : name;
    if (!/^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/.test(bare)) throw bad();
    allow.names.push(wildcard ? `.${bare}` : bare);
  }
  return allow;
}
