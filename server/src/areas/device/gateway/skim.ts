import { Duplex } from 'node:stream';

/**
 * The lean receive path of a broker link (external.ts): the uplinks (PUBLISH at QoS 1) are read off the socket here
 * and their PUBACKs written in one write per socket read, in the order the PUBLISHes came (MQTT 3.1.1 §4.6); every
 * other packet (CONNACK, SUBACK, the PUBACKs of the commands the server publishes, PINGRESP, a QoS 0 or QoS 2
 * PUBLISH) goes to mqtt.js unchanged, which keeps the connection, the subscriptions, the keepalive and the commands.
 * Through mqtt.js each uplink cost a parse into a packet object (mqtt-packet over `bl`), events, a debug log call at
 * every step, a turn of `process.nextTick` and an ack written in three pieces: about a quarter of the server's CPU
 * under ingestion.
 *
 * A frame this reader cannot read (a remaining length over four bytes, a topic longer than its packet) is handed to
 * mqtt.js with everything after it, so mqtt.js answers it exactly as it did before (an error, the link closed).
 */

/**
 * The PUBACKs of a link leave once this many wait, or `ACK_DELAY_MS` after the first of them: a write to the broker's
 * socket costs the sender the TCP work of both ends on one machine (18 % of the server's CPU with a write a read, the
 * broker sending each member a few messages at a time). Half of Mosquitto's default window (20 in flight a member),
 * so the broker always has the other half to send while these wait.
 */
export const ACK_BATCH = 10;
export const ACK_DELAY_MS = 2;

/** a PUBLISH with QoS 1: fixed header type 3, QoS bits 01 (DUP and RETAIN bits either way) */
const isPublishQos1 = (b0: number) => (b0 & 0xf6) === 0x32;

export interface SkimTarget {
  /** an uplink; true when its PUBACK must wait for `drained()` (the ingest buffer is full) */
  publish(topic: string, payload: Buffer): boolean;
  /** bytes of whole packets for mqtt.js */
  pass(bytes: Buffer): void;
  /** PUBACK packets to write to the broker */
  ack(bytes: Buffer): void;
  drained(): Promise<void>;
  /** stop and restart reading the socket while an ack waits */
  pause(): void;
  resume(): void;
}

export function pubacks(ids: readonly number[]): Buffer {
  const out = Buffer.allocUnsafe(ids.length * 4);
  for (let i = 0, at = 0; i < ids.length; i++, at += 4) {
    const id = ids[i]!;
    out[at] = 0x40;
    out[at + 1] = 0x02;
    out[at + 2] = id >> 8;
    out[at + 3] = id & 0xff;
  }
  return out;
}

/** Splits a link's incoming bytes into uplinks (handled and acknowledged here) and packets for mqtt.js. */
export class PublishSkimmer {
  /** bytes read and not yet handled: a partial packet, or what waits while the buffer is full */
  private rest: Buffer | undefined;
  /** a packet this reader could not read was met: everything from it on is mqtt.js's */
  private raw = false;
  /** an ack waits for room in the ingest buffer */
  private blocked = false;
  private readonly ids: number[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly t: SkimTarget) {}

  /** uplinks read and not yet acknowledged (the one waiting for room) */
  get waiting(): boolean {
    return this.blocked;
  }

  push(chunk: Buffer): void {
    if (this.raw) return this.t.pass(chunk);
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = undefined;
    if (this.blocked) {
      this.rest = buf;
      return;
    }
    this.read(buf);
  }

  private read(buf: Buffer): void {
    const end = buf.length;
    let at = 0;
    /** the start of a run of packets for mqtt.js, -1 when none */
    let passFrom = -1;
    while (at < end) {
      // the fixed header: the type and flags, the remaining length in 1–4 bytes of 7 bits
      let len = 0;
      let mul = 1;
      let i = at + 1;
      let complete = false;
      for (let n = 0; n < 4 && i < end; n++) {
        const b = buf[i++]!;
        len += (b & 0x7f) * mul;
        mul *= 128;
        if (b < 0x80) {
          complete = true;
          break;
        }
      }
      if (!complete) {
        if (i - at > 4) return this.giveUp(buf, passFrom < 0 ? at : passFrom);
        break; // the header continues in the next read
      }
      const frameEnd = i + len;
      if (frameEnd > end) break;
      const b0 = buf[at]!;
      if (!isPublishQos1(b0)) {
        if (passFrom < 0) passFrom = at;
        at = frameEnd;
        continue;
      }
      // topic length, topic, message id, payload
      const topicEnd = len >= 2 ? i + 2 + buf.readUInt16BE(i) : frameEnd + 1;
      if (topicEnd + 2 > frameEnd) return this.giveUp(buf, passFrom < 0 ? at : passFrom);
      if (passFrom >= 0) {
        this.t.pass(buf.subarray(passFrom, at));
        passFrom = -1;
      }
      const id = buf.readUInt16BE(topicEnd);
      at = frameEnd;
      if (this.t.publish(buf.toString('utf8', i + 2, topicEnd), buf.subarray(topicEnd + 2, frameEnd))) {
        this.block(id, at < end ? buf.subarray(at) : undefined);
        return;
      }
      this.ids.push(id);
    }
    if (passFrom >= 0) this.t.pass(buf.subarray(passFrom, at));
    this.ackSoon();
    if (at < end) this.rest = buf.subarray(at);
  }

  /** the acks leave now when `ACK_BATCH` wait, else within `ACK_DELAY_MS` */
  private ackSoon(): void {
    if (this.ids.length >= ACK_BATCH) this.flushAcks();
    else if (this.ids.length && !this.timer) this.timer = setTimeout(() => this.flushAcks(), ACK_DELAY_MS);
  }

  /** writes the waiting acks (in the order their messages came) */
  flushAcks(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.ids.length) return;
    this.t.ack(pubacks(this.ids));
    this.ids.length = 0;
  }

  /** the buffer is full: the acks before this one leave now, this one (and what follows it) once there is room */
  private block(id: number, rest: Buffer | undefined): void {
    this.flushAcks();
    this.blocked = true;
    this.rest = rest;
    this.t.pause();
    void this.t.drained().then(() => {
      this.blocked = false;
      this.ids.push(id);
      const more = this.rest;
      this.rest = undefined;
      if (more) this.read(more);
      else this.ackSoon();
      if (!this.blocked) this.t.resume();
    });
  }

  private giveUp(buf: Buffer, from: number): void {
    this.flushAcks();
    this.raw = true;
    this.t.pass(buf.subarray(from));
  }
}

/**
 * The stream mqtt.js reads and writes in place of the broker's socket: what it reads is what the skimmer leaves
 * (whole packets), what it writes goes to the socket as it comes (a corked batch in one write).
 */
export class SkimmedStream extends Duplex {
  private readonly skimmer: PublishSkimmer;

  constructor(readonly socket: Duplex, handle: (topic: string, payload: Buffer) => boolean, drained: () => Promise<void>) {
    super();
    this.skimmer = new PublishSkimmer({
      publish: handle,
      pass: (bytes) => this.push(bytes),
      ack: (bytes) => {
        if (!socket.destroyed) socket.write(bytes);
      },
      drained,
      pause: () => socket.pause(),
      resume: () => socket.resume(),
    });
    socket.on('data', (chunk: Buffer) => this.skimmer.push(chunk));
    socket.on('end', () => this.push(null));
    socket.on('error', (err) => this.destroy(err));
    socket.on('close', () => this.destroy());
  }

  override _read(): void {}

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.socket.write(chunk);
    cb();
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, cb: (err?: Error | null) => void): void {
    this.socket.write(chunks.length === 1 ? chunks[0]!.chunk : Buffer.concat(chunks.map((c) => c.chunk)));
    cb();
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.socket.end(cb);
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.skimmer.flushAcks();
    this.socket.destroy();
    cb(err);
  }
}
