import { Duplex } from 'node:stream';

/**
 * The lean receive path of a broker link (external.ts): the uplinks (PUBLISH at QoS 1, or 0) are read off the socket
 * here and their PUBACKs written together (`ACK_BATCH`, `ACK_DELAY_MS`), in the order the PUBLISHes came (MQTT 3.1.1
 * §4.6); every other packet (CONNACK, SUBACK, the PUBACKs of the commands the server publishes, PINGRESP, a QoS 2
 * PUBLISH) goes to mqtt.js unchanged, which keeps the connection, the subscriptions, the keepalive and the commands.
 * Through mqtt.js each uplink cost a parse into a packet object (mqtt-packet over `bl`), events, a debug log call at
 * every step, a turn of `process.nextTick` and an ack written in three pieces: about a quarter of the server's CPU
 * under ingestion.
 *
 * While the ingest buffer is full the ack of the message that filled it waits, and the uplinks that follow wait
 * unread in order (the broker sends a member no more than its window, 20 on Mosquitto, before it waits for acks);
 * the link's other packets still reach mqtt.js, so the commands a batch's handler publishes (event replies) get their
 * PUBACKs and the batch ends. Through mqtt.js a held uplink held every packet behind it, the commands' PUBACKs on
 * the link they leave by included: a full buffer stalled its own flush.
 *
 * A frame this reader cannot read (a remaining length over four bytes, a topic longer than its packet) is handed to
 * mqtt.js with everything after it, so mqtt.js answers it exactly as it did before (an error, the link closed).
 */

/**
 * The PUBACKs of a link leave once this many wait, or `ACK_DELAY_MS` after the first of them: a write to the broker's
 * socket costs the sender the TCP work of both ends on one machine (13–18 % of the server's CPU with a write a read or
 * every 2 ms: 16 members at 10,000 messages/s get one or two messages a member each 2 ms). `ACK_BATCH` is half of
 * Mosquitto's default window (20 in flight a member), so the broker always has the other half to send while these
 * wait; the delay only holds acks of messages already in the ingest buffer (they are acknowledged later, never
 * earlier, than they are taken).
 */
export const ACK_BATCH = 10;
export const ACK_DELAY_MS = 10;

/** a PUBLISH with QoS 0 or 1: fixed header type 3, QoS bits 00 or 01 (DUP and RETAIN bits either way) */
const isPublishQos01 = (b0: number) => (b0 & 0xf4) === 0x30;
/**
 * uplinks waiting unread past this many (a broker that does not bound its window, or QoS 0 ones, which no window
 * bounds): the socket is paused until there is room
 */
export const MAX_HELD = 1000;

interface Held {
  topic: string;
  payload: Buffer;
  /** the message id; -1 for QoS 0 (no ack) */
  id: number;
}

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
  /** bytes read and not yet handled: a partial packet */
  private rest: Buffer | undefined;
  /** a packet this reader could not read was met: everything from it on is mqtt.js's */
  private raw = false;
  /** the ingest buffer is full: `blockedId`'s ack and the `held` uplinks wait for room */
  private blocked = false;
  private blockedId = -1;
  private readonly held: Held[] = [];
  private paused = false;
  private readonly ids: number[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly t: SkimTarget) {}

  /** uplinks read and waiting for room in the ingest buffer */
  get waiting(): number {
    return this.held.length + (this.blocked ? 1 : 0);
  }

  push(chunk: Buffer): void {
    if (this.raw) return this.t.pass(chunk);
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = undefined;
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
      if (!isPublishQos01(b0)) {
        if (passFrom < 0) passFrom = at;
        at = frameEnd;
        continue;
      }
      // topic length, topic, message id (QoS 1), payload
      const qos1 = (b0 & 0x02) !== 0;
      const topicEnd = len >= 2 ? i + 2 + buf.readUInt16BE(i) : frameEnd + 1;
      const payloadAt = qos1 ? topicEnd + 2 : topicEnd;
      if (payloadAt > frameEnd) return this.giveUp(buf, passFrom < 0 ? at : passFrom);
      if (passFrom >= 0) {
        this.t.pass(buf.subarray(passFrom, at));
        passFrom = -1;
      }
      const topic = buf.toString('utf8', i + 2, topicEnd);
      const payload = buf.subarray(payloadAt, frameEnd);
      const id = qos1 ? buf.readUInt16BE(topicEnd) : -1;
      at = frameEnd;
      if (this.blocked) this.hold({ topic, payload, id });
      else this.take(topic, payload, id);
    }
    if (passFrom >= 0) this.t.pass(buf.subarray(passFrom, at));
    this.ackSoon();
    if (at < end) this.rest = buf.subarray(at);
  }

  /** an uplink handed over; the buffer full, its ack (and what follows) waits for room */
  private take(topic: string, payload: Buffer, id: number): void {
    if (!this.t.publish(topic, payload)) {
      if (id >= 0) this.ids.push(id);
      return;
    }
    this.flushAcks();
    this.blocked = true;
    this.blockedId = id;
    void this.t.drained().then(() => this.unblock());
  }

  private hold(h: Held): void {
    this.held.push(h);
    if (this.held.length >= MAX_HELD && !this.paused) {
      this.paused = true;
      this.t.pause();
    }
  }

  private unblock(): void {
    this.blocked = false;
    if (this.blockedId >= 0) this.ids.push(this.blockedId);
    this.blockedId = -1;
    let n = 0;
    while (n < this.held.length && !this.blocked) {
      const h = this.held[n++]!;
      this.take(h.topic, h.payload, h.id);
    }
    this.held.splice(0, n);
    this.ackSoon();
    if (this.paused && this.held.length < MAX_HELD) {
      this.paused = false;
      this.t.resume();
    }
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

  /** the acks before the frame leave at once: mqtt.js is about to close the link on it */
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

  // the acks waiting leave first, in the same order as ever (before a DISCONNECT, with a command)
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.skimmer.flushAcks();
    this.socket.write(chunk);
    cb();
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, cb: (err?: Error | null) => void): void {
    this.skimmer.flushAcks();
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
