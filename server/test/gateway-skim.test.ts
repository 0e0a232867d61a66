import { PassThrough } from 'node:stream';
import mqttPacket from 'mqtt-packet';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACK_BATCH, ACK_DELAY_MS, MAX_HELD, PublishSkimmer, pubacks, SkimmedStream } from '../src/areas/device/gateway/skim.js';

/**
 * The lean receive path of the external gateway's broker links (skim.ts): QoS 1 PUBLISHes read and acknowledged off
 * the socket, everything else handed to mqtt.js byte for byte.
 */
const publish = (messageId: number, topic = `r/up/property/P/d${messageId}`, payload = `{"n":${messageId}}`, extra: object = {}) =>
  mqttPacket.generate({ cmd: 'publish', qos: 1, messageId, topic, payload, retain: false, dup: false, ...extra } as mqttPacket.IPublishPacket);
const suback = mqttPacket.generate({ cmd: 'suback', messageId: 7, granted: [1] });
const pingresp = mqttPacket.generate({ cmd: 'pingresp' });
const puback = mqttPacket.generate({ cmd: 'puback', messageId: 9 });
const qos0 = mqttPacket.generate({ cmd: 'publish', qos: 0, topic: 'r/up/property/P/q', payload: 'zero', retain: false, dup: false });

/** the acks written, as message ids, checked to be well-formed PUBACKs */
function ackIds(writes: Buffer[]): number[] {
  const ids: number[] = [];
  for (const w of writes) {
    expect(w.length % 4).toBe(0);
    for (let at = 0; at < w.length; at += 4) {
      expect([w[at], w[at + 1]]).toEqual([0x40, 0x02]);
      ids.push(w.readUInt16BE(at + 2));
    }
  }
  return ids;
}

function harness(opts: { full?: (n: number) => boolean } = {}) {
  const got: Array<{ topic: string; payload: string }> = [];
  const passed: Buffer[] = [];
  const acks: Buffer[] = [];
  const paused = { now: false, times: 0 };
  let release: (() => void) | undefined;
  const skimmer = new PublishSkimmer({
    publish: (topic, payload) => {
      got.push({ topic, payload: payload.toString() });
      return opts.full?.(got.length) ?? false;
    },
    pass: (b) => passed.push(Buffer.from(b)),
    ack: (b) => acks.push(Buffer.from(b)),
    drained: () => new Promise<void>((r) => { release = r; }),
    pause: () => { paused.now = true; paused.times++; },
    resume: () => { paused.now = false; },
  });
  return { skimmer, got, passed, acks, paused, release: () => release?.() };
}

/** what mqtt.js would parse out of the bytes handed to it */
function parsed(bytes: Buffer[]): mqttPacket.Packet[] {
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  const out: mqttPacket.Packet[] = [];
  const errors: Error[] = [];
  parser.on('packet', (p) => out.push(p));
  parser.on('error', (e) => errors.push(e));
  for (const b of bytes) parser.parse(b);
  if (errors.length) (out as unknown as { errors: Error[] }).errors = errors;
  return out;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('PublishSkimmer', () => {
  it('reads the QoS 1 PUBLISHes of one read and acknowledges them in order, in one write', () => {
    const h = harness();
    const ids = Array.from({ length: ACK_BATCH }, (_, i) => 1000 + i * 7);
    h.skimmer.push(Buffer.concat(ids.map((id) => publish(id))));
    expect(h.got).toEqual(ids.map((id) => ({ topic: `r/up/property/P/d${id}`, payload: `{"n":${id}}` })));
    expect(h.acks).toHaveLength(1);
    expect(ackIds(h.acks)).toEqual(ids);
    expect(h.passed).toEqual([]);
  });

  it('waits for more acks up to ACK_DELAY_MS, then writes what waits', () => {
    vi.useFakeTimers();
    const h = harness();
    h.skimmer.push(publish(1));
    h.skimmer.push(publish(2));
    expect(h.acks).toEqual([]);
    vi.advanceTimersByTime(ACK_DELAY_MS);
    expect(ackIds(h.acks)).toEqual([1, 2]);
    expect(h.acks).toHaveLength(1);
  });

  it('reads packets cut anywhere across reads, headers and remaining lengths included', () => {
    const long = 'x'.repeat(300); // a two-byte remaining length
    const frames = [publish(1), publish(2, 'r/up/event/P/d', long), suback, publish(3, 'r/up/ota/P/设备'), pingresp, publish(65535)];
    const all = Buffer.concat(frames);
    for (const step of [1, 2, 3, 5, 17, 64]) {
      const h = harness();
      for (let at = 0; at < all.length; at += step) h.skimmer.push(all.subarray(at, at + step));
      h.skimmer.flushAcks();
      expect(h.got.map((g) => g.topic)).toEqual(['r/up/property/P/d1', 'r/up/event/P/d', 'r/up/ota/P/设备', 'r/up/property/P/d65535']);
      expect(h.got[1]!.payload).toBe(long);
      expect(ackIds(h.acks)).toEqual([1, 2, 3, 65535]);
      expect(parsed(h.passed).map((p) => p.cmd)).toEqual(['suback', 'pingresp']);
    }
  });

  it('hands every other packet to mqtt.js unchanged: SUBACK, PINGRESP, PUBACK, a QoS 2 PUBLISH; takes a QoS 0 one without an ack', () => {
    const h = harness();
    const qos2 = publish(5, 'r/up/property/P/two', 'two', { qos: 2 });
    h.skimmer.push(Buffer.concat([suback, publish(1), pingresp, puback, qos0, qos2, publish(2)]));
    h.skimmer.flushAcks();
    expect(ackIds(h.acks)).toEqual([1, 2]);
    expect(h.got.map((g) => g.topic)).toEqual(['r/up/property/P/d1', 'r/up/property/P/q', 'r/up/property/P/d2']);
    expect(h.got[1]!.payload).toBe('zero');
    expect(Buffer.concat(h.passed).equals(Buffer.concat([suback, pingresp, puback, qos2]))).toBe(true);
    expect(parsed(h.passed).map((p) => `${p.cmd}${p.cmd === 'publish' ? p.qos : ''}`)).toEqual(['suback', 'pingresp', 'puback', 'publish2']);
  });

  it('takes a DUP or RETAIN QoS 1 PUBLISH and an empty payload like any other', () => {
    const h = harness();
    h.skimmer.push(Buffer.concat([publish(1, 'a/b', 'p', { dup: true }), publish(2, 'a/b', 'p', { retain: true }), publish(3, 'a/b', '')]));
    h.skimmer.flushAcks();
    expect(h.got).toEqual([{ topic: 'a/b', payload: 'p' }, { topic: 'a/b', payload: 'p' }, { topic: 'a/b', payload: '' }]);
    expect(ackIds(h.acks)).toEqual([1, 2, 3]);
  });

  it('hands a packet it cannot read to mqtt.js with everything after it: the acks before it leave, none after', () => {
    // a QoS 1 PUBLISH whose topic is longer than its packet
    const bad = Buffer.from([0x32, 0x06, 0x00, 0x40, 0x61, 0x62, 0x00, 0x01]);
    const h = harness();
    h.skimmer.push(Buffer.concat([publish(1), bad, publish(2)]));
    h.skimmer.push(publish(3));
    expect(ackIds(h.acks)).toEqual([1]);
    expect(h.got).toHaveLength(1);
    expect(Buffer.concat(h.passed).equals(Buffer.concat([bad, publish(2), publish(3)]))).toBe(true);
    expect((parsed(h.passed) as unknown as { errors?: Error[] }).errors?.length).toBeGreaterThan(0);
  });

  it('hands a remaining length of five bytes, and a PUBLISH too short for its message id, to mqtt.js', () => {
    const h = harness();
    const fiveBytes = Buffer.from([0x32, 0xff, 0xff, 0xff, 0xff, 0x01]);
    h.skimmer.push(Buffer.concat([suback, fiveBytes]));
    expect(Buffer.concat(h.passed).equals(Buffer.concat([suback, fiveBytes]))).toBe(true);
    const h2 = harness();
    const short = Buffer.from([0x32, 0x03, 0x00, 0x01, 0x61]);
    h2.skimmer.push(short);
    expect(h2.got).toEqual([]);
    expect(Buffer.concat(h2.passed).equals(short)).toBe(true);
  });

  it('holds the ack of the message that filled the buffer and the uplinks after it until there is room; other packets still pass', async () => {
    const h = harness({ full: (n) => n === 2 });
    h.skimmer.push(Buffer.concat([publish(1), publish(2), publish(3)]));
    expect(h.got).toHaveLength(2);
    expect(ackIds(h.acks)).toEqual([1]);
    // the PUBACK of a command (an event reply) reaches mqtt.js while the uplinks wait: the batch that sent it can end
    h.skimmer.push(Buffer.concat([publish(4), puback, publish(5).subarray(0, 5)]));
    expect(h.got).toHaveLength(2);
    expect(h.skimmer.waiting).toBe(3);
    expect(parsed(h.passed).map((p) => p.cmd)).toEqual(['puback']);
    expect(h.paused.times).toBe(0);
    h.release();
    await new Promise((r) => setImmediate(r));
    h.skimmer.push(publish(5).subarray(5));
    h.skimmer.flushAcks();
    expect(h.got.map((g) => g.payload)).toEqual([1, 2, 3, 4, 5].map((n) => `{"n":${n}}`));
    expect(ackIds(h.acks)).toEqual([1, 2, 3, 4, 5]);
    expect(h.skimmer.waiting).toBe(0);
  });

  it('blocks again in the middle of what waited, the acks still in order; a QoS 0 uplink that fills the buffer holds no ack', async () => {
    let full = new Set([1, 3]);
    const h = harness({ full: (n) => full.has(n) });
    h.skimmer.push(Buffer.concat([qos0, publish(2), publish(3), publish(4)]));
    expect(h.got).toHaveLength(1);
    h.release();
    await new Promise((r) => setImmediate(r));
    expect(h.got).toHaveLength(3);
    expect(ackIds(h.acks)).toEqual([2]);
    full = new Set();
    h.release();
    await new Promise((r) => setImmediate(r));
    h.skimmer.flushAcks();
    expect(h.got.map((g) => g.topic)).toEqual(['r/up/property/P/q', 'r/up/property/P/d2', 'r/up/property/P/d3', 'r/up/property/P/d4']);
    expect(ackIds(h.acks)).toEqual([2, 3, 4]);
  });

  it('pauses the socket once MAX_HELD uplinks wait, and resumes it when they are taken', async () => {
    const h = harness({ full: (n) => n === 1 });
    h.skimmer.push(publish(1));
    for (let i = 0; i < MAX_HELD; i++) h.skimmer.push(publish(2 + (i % 60000)));
    expect(h.paused).toEqual({ now: true, times: 1 });
    h.release();
    await new Promise((r) => setImmediate(r));
    h.skimmer.flushAcks();
    expect(h.paused.now).toBe(false);
    expect(h.got).toHaveLength(MAX_HELD + 1);
    expect(ackIds(h.acks)).toHaveLength(MAX_HELD + 1);
  });

  it('writes PUBACKs as MQTT 3.1.1 has them', () => {
    expect(pubacks([1, 0x1234, 65535])).toEqual(Buffer.concat([
      mqttPacket.generate({ cmd: 'puback', messageId: 1 }), mqttPacket.generate({ cmd: 'puback', messageId: 0x1234 }), mqttPacket.generate({ cmd: 'puback', messageId: 65535 }),
    ]));
  });
});

describe('SkimmedStream', () => {
  it('gives mqtt.js the other packets, writes its packets and the acks to the socket, and closes with it', async () => {
    const fromBroker = new PassThrough();
    const toBroker: Buffer[] = [];
    // the socket: what the broker sends comes out of it, what is written to it is collected
    const duplex = Object.assign(fromBroker, {
      write: (b: Buffer) => (toBroker.push(Buffer.from(b)), true),
    }) as unknown as PassThrough;
    const got: string[] = [];
    const stream = new SkimmedStream(duplex, (topic) => (got.push(topic), false), async () => undefined);
    const read: Buffer[] = [];
    stream.on('data', (b: Buffer) => read.push(b));
    fromBroker.emit('data', Buffer.concat([suback, publish(1, 'a/b'), pingresp]));
    await new Promise((r) => setTimeout(r, ACK_DELAY_MS + 5));
    expect(got).toEqual(['a/b']);
    // an ack waiting leaves before what mqtt.js writes next
    fromBroker.emit('data', publish(2, 'a/c'));
    expect(Buffer.concat(read).equals(Buffer.concat([suback, pingresp]))).toBe(true);
    stream.cork();
    mqttPacket.writeToStream({ cmd: 'pingreq' }, stream);
    mqttPacket.writeToStream({ cmd: 'subscribe', messageId: 3, subscriptions: [{ topic: 'x/#', qos: 1 }] }, stream);
    stream.uncork();
    await new Promise((r) => setImmediate(r));
    expect(ackIds([toBroker[0]!])).toEqual([1]);
    expect(ackIds([toBroker[1]!])).toEqual([2]);
    expect(parsed(toBroker.slice(2)).map((p) => p.cmd)).toEqual(['pingreq', 'subscribe']);
    const closed = new Promise((r) => stream.once('close', r));
    fromBroker.destroy();
    await closed;
  });
});
