import type { LookupAddress } from 'node:dns';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/core/config.js';
import {
  internalAddress, internalUrl, NO_ALLOWANCE, type OutboundAllowList, outboundAgents, parseAllowList, type Resolve,
} from '../src/core/outbound.js';

/** The outbound guard (core/outbound.ts) on its own: which addresses are internal, and the agents at connect time. */

describe('internal addresses', () => {
  it('names every internal range, in every IPv6 form that stands for an IPv4 address', () => {
    const internal = [
      '0.0.0.0', '0.1.2.3', '10.0.0.1', '10.255.255.255', '100.64.0.1', '100.100.100.200', '100.127.255.255', '127.0.0.1', '127.255.0.9',
      '169.254.169.254', '169.254.0.1', '172.16.0.1', '172.31.255.255', '192.0.0.192', '192.168.0.1', '198.18.0.1', '224.0.0.1',
      '239.255.255.250', '240.0.0.1', '255.255.255.255',
      '::', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:a00:1', '::ffff:169.254.169.254', '::127.0.0.1',
      '64:ff9b::a9fe:a9fe', '64:ff9b::10.0.0.1', '2002:c0a8:101::1', 'fc00::1', 'fd00:ec2::254', 'fe80::1', 'fe80::1%eth0', 'ff02::1',
      '2001:db8::1', '2001:0:4136:e378::1',
    ];
    for (const a of internal) expect(internalAddress(a), a).not.toBeNull();
    const open = [
      '8.8.8.8', '1.1.1.1', '100.63.255.255', '100.128.0.1', '172.15.255.255', '172.32.0.1', '192.169.0.1', '169.255.0.1', '223.255.255.255',
      '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2400:cb00::1',
    ];
    for (const a of open) expect(internalAddress(a), a).toBeNull();
    expect(internalAddress('::ffff:10.0.0.1')).toMatch(/private.*IPv4-mapped/);
    expect(internalAddress('not an address')).toBeNull();
  });

  it('reads URLs as the URL parser writes them: decimal, hex, octal and short IPv4, bracketed IPv6, internal names', () => {
    for (const url of [
      'http://2130706433', 'http://0x7f.1', 'http://0177.0.0.1', 'http://127.1', 'http://0x7f000001:9000/x', 'http://[::ffff:127.0.0.1]',
      'http://localhost', 'http://LocalHost.', 'http://a.b.localhost', 'http://metadata.google.internal/computeMetadata', 'http://x.internal',
      'http://user:pw@10.1.2.3', 'http://169.254.169.254.', 'https://[fd00:ec2::254]:443',
    ]) expect(internalUrl(url, NO_ALLOWANCE), url).not.toBeNull();
    for (const url of ['https://s3.amazonaws.com', 'https://minio.example.com:9000', 'http://8.8.8.8', 'not a url']) expect(internalUrl(url, NO_ALLOWANCE), url).toBeNull();
    expect(internalUrl('http://2130706433:9000', NO_ALLOWANCE)).toEqual({ host: '127.0.0.1', reason: 'loopback' });
  });
});

describe('the allow-list', () => {
  it('takes names, wildcard names, addresses and CIDR ranges, and lets only those through', () => {
    const allow = parseAllowList(' minio.internal , *.store.lan, 127.0.0.1, 10.8.0.0/16, fd00:1::/64 ');
    expect(internalUrl('http://minio.internal:9000', allow)).toBeNull();
    expect(internalUrl('http://a.store.lan', allow)).toBeNull();
    expect(internalUrl('http://127.0.0.1:9000', allow)).toBeNull();
    expect(internalUrl('http://[::ffff:127.0.0.1]:9000', allow)).toBeNull();
    expect(internalUrl('http://10.8.200.1', allow)).toBeNull();
    expect(internalUrl('http://[fd00:1::5]', allow)).toBeNull();
    expect(internalUrl('http://127.0.0.2', allow)).not.toBeNull();
    expect(internalUrl('http://10.9.0.1', allow)).not.toBeNull();
    expect(internalUrl('http://[::1]', allow)).not.toBeNull();
    expect(internalUrl('http://other.internal', allow)).not.toBeNull();
    expect(internalUrl('http://[fd00:2::5]', allow)).not.toBeNull();
  });

  it('refuses a malformed entry at start, naming the setting', () => {
    for (const bad of ['10.0.0.0/33', 'http://x', '1.2.3.4/8/1', 'a b', '::1/129', '10.0.0.0/x']) {
      expect(() => parseAllowList(bad), bad).toThrow(/OUTBOUND_ALLOW_HOSTS/);
    }
    expect(() => loadConfig({ NODE_ENV: 'test', OUTBOUND_ALLOW_HOSTS: 'http://minio:9000' }, { dataDir: `/tmp/outbound-config-${process.pid}` })).toThrow(/OUTBOUND_ALLOW_HOSTS/);
    expect(loadConfig({ NODE_ENV: 'test' }, { dataDir: `/tmp/outbound-config-${process.pid}` }).outboundAllow).toEqual(NO_ALLOWANCE);
  });
});

describe('the guarded agents, at connect time', () => {
  let server: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('inside'));
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  /** A resolver answering from a table (a name that resolved to a public address when it was saved now answers 127.0.0.1). */
  const table = (answers: Record<string, string>): Resolve & { asked: string[] } => {
    const asked: string[] = [];
    const resolve = ((host, _options, callback) => {
      asked.push(host);
      const address = answers[host];
      if (!address) return callback(Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
      callback(null, [{ address, family: address.includes(':') ? 6 : 4 } satisfies LookupAddress]);
    }) as Resolve & { asked: string[] };
    resolve.asked = asked;
    return resolve;
  };

  function get(host: string, allow: OutboundAllowList, resolve?: Resolve): Promise<{ ok: true; body: string } | { ok: false; error: Error & { code?: string } }> {
    const { httpAgent } = outboundAgents(allow, resolve ? { resolve } : {});
    return new Promise((done) => {
      const req = httpRequest({ host, port, path: '/', agent: httpAgent }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => {
          httpAgent.destroy();
          done({ ok: true, body });
        });
      });
      req.on('error', (error) => {
        httpAgent.destroy();
        done({ ok: false, error });
      });
      req.end();
    });
  }

  it('refuses a name that resolves inside when connecting (DNS rebinding): nothing reaches the service', async () => {
    const resolve = table({ 'files.example.com': '127.0.0.1' });
    expect(internalUrl('http://files.example.com', NO_ALLOWANCE)).toBeNull(); // saved: nothing to see then
    const res = await get('files.example.com', NO_ALLOWANCE, resolve);
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.code).toBe('EOUTBOUNDREFUSED');
      expect(res.error.message).toMatch(/files\.example\.com resolves to 127\.0\.0\.1, loopback/);
    }
    expect(resolve.asked).toEqual(['files.example.com']);
    expect(connections).toBe(0);
  });

  it('refuses literal addresses before any connection, and odd spellings the system resolver turns into them', async () => {
    for (const host of ['127.0.0.1', '::ffff:127.0.0.1', '2130706433', '0x7f.1', '0177.0.0.1', 'localhost']) {
      const res = await get(host, NO_ALLOWANCE);
      expect(res.ok, host).toBe(false);
      if (!res.ok) expect(res.error.code, host).toBe('EOUTBOUNDREFUSED');
    }
    expect(connections).toBe(0);
  });

  it('lets through what the operator listed, by address or by name', async () => {
    expect(await get('127.0.0.1', parseAllowList('127.0.0.1'))).toEqual({ ok: true, body: 'inside' });
    expect(await get('files.example.com', parseAllowList('127.0.0.0/8'), table({ 'files.example.com': '127.0.0.1' }))).toEqual({ ok: true, body: 'inside' });
    expect(await get('minio.lan', parseAllowList('minio.lan'), table({ 'minio.lan': '127.0.0.1' }))).toEqual({ ok: true, body: 'inside' });
    expect(connections).toBe(3);
    const other = await get('other.lan', parseAllowList('minio.lan'), table({ 'other.lan': '127.0.0.1' }));
    expect(other.ok).toBe(false);
    expect(connections).toBe(3);
  });
});
