import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import { MAX_PAYLOAD_BYTES } from './envelope.js';

/**
 * Bounds of the embedded broker's port (docs/device-protocol.md §1): what one connection may announce, and how
 * many connections one address and everyone together may hold.
 */

/** a CONNECT's remaining length: client id, username, password (≤ 512), a last will with its signed envelope */
export const MAX_CONNECT_BYTES = 4096;
/** any later packet: a PUBLISH of the largest payload with its topic, or a SUBSCRIBE */
export const MAX_PACKET_BYTES = MAX_PAYLOAD_BYTES + 1024;

const CONNECT = 1;

export type GuardRefusal = 'not_connect' | 'connect_too_large' | 'packet_too_large' | 'bad_length';

/**
 * The connection handed to aedes in place of the socket: it reads each packet's fixed header as bytes arrive and
 * closes the socket as soon as an announced remaining length exceeds the bound (MAX_CONNECT_BYTES for the first
 * packet, which must be a CONNECT; MAX_PACKET_BYTES after), so nothing larger than the bound is ever buffered.
 * Until `signedIn()` is called, it stops reading after the CONNECT: bytes a client pipelines behind its CONNECT
 * wait in the kernel's socket buffer, not in the server's memory.
 */
export class GuardedConnection extends Duplex {
  private packets = 0;
  private state: 'header' | 'length' | 'body' = 'header';
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private remaining = 0;
  private authenticated = false;
  /** the rest of the chunk that held the CONNECT, kept until the client has signed in */
  private held?: Buffer;

  constructor(private readonly socket: Socket, private readonly onRefused: (reason: GuardRefusal) => void) {
    super({ allowHalfOpen: false });
    socket.on('data', (chunk: Buffer) => this.scan(chunk));
    socket.on('end', () => this.push(null));
    socket.on('error', (err) => this.destroy(err));
    socket.on('close', () => this.destroy());
  }

  get remoteAddress(): string | undefined {
    return this.socket.remoteAddress;
  }

  /** the CONNECT was accepted: what the client sent behind it is read now */
  signedIn(): void {
    if (this.authenticated) return;
    this.authenticated = true;
    const held = this.held;
    this.held = undefined;
    if (held) this.scan(held);
    if (!this.destroyed && !this.readableNeedsDrain()) this.socket.resume();
  }

  private readableNeedsDrain(): boolean {
    return this.readableLength >= this.readableHighWaterMark;
  }

  private scan(chunk: Buffer): void {
    if (this.destroyed) return;
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'header') {
        const type = chunk[i]! >> 4;
        if ((this.packets === 0) !== (type === CONNECT)) return this.refuse('not_connect');
        this.state = 'length';
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
        i++;
      } else if (this.state === 'length') {
        const b = chunk[i++]!;
        this.length += (b & 0x7f) * this.multiplier;
        this.multiplier *= 128;
        this.lengthBytes++;
        if (b & 0x80) {
          if (this.lengthBytes === 4) return this.refuse('bad_length');
          continue;
        }
        const limit = this.packets === 0 ? MAX_CONNECT_BYTES : MAX_PACKET_BYTES;
        if (this.length > limit) return this.refuse(this.packets === 0 ? 'connect_too_large' : 'packet_too_large');
        this.remaining = this.length;
        this.state = 'body';
      } else {
        const n = Math.min(this.remaining, chunk.length - i);
        i += n;
        this.remaining -= n;
      }
      if (this.state === 'body' && this.remaining === 0) {
        this.state = 'header';
        this.packets++;
        if (this.packets === 1 && !this.authenticated) {
          if (i < chunk.length) this.held = chunk.subarray(i);
          this.socket.pause();
          this.forward(chunk.subarray(0, i));
          return;
        }
      }
    }
    this.forward(chunk);
  }

  private forward(chunk: Buffer): void {
    if (chunk.length && !this.push(chunk)) this.socket.pause();
  }

  private refuse(reason: GuardRefusal): void {
    this.onRefused(reason);
    this.socket.destroy();
    this.destroy();
  }

  override _read(): void {
    // before sign-in, reading stays paused after the CONNECT
    if ((this.authenticated || this.packets === 0) && this.socket.isPaused()) this.socket.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.socket.destroyed) return callback();
    this.socket.write(chunk, (err) => callback(err ?? null));
  }

  // what the broker wrote while the socket was still busy (the acks of a read of many messages) goes in one write
  override _writev(chunks: Array<{ chunk: Buffer }>, callback: (error?: Error | null) => void): void {
    if (this.socket.destroyed) return callback();
    this.socket.write(chunks.length === 1 ? chunks[0]!.chunk : Buffer.concat(chunks.map((c) => c.chunk)), (err) => callback(err ?? null));
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end(() => callback());
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.held = undefined;
    if (!this.socket.destroyed) this.socket.destroy();
    callback(err);
  }
}

/** Open connections per address and in total; a connection beyond either limit is closed at once. */
export class ConnectionLimits {
  private total = 0;
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly maxTotal: number, private readonly maxPerAddress: number) {}

  /** takes a place for a connection from this address; false when a limit is reached */
  admit(address: string): boolean {
    const n = this.byAddress.get(address) ?? 0;
    if (this.total >= this.maxTotal || n >= this.maxPerAddress) return false;
    this.total++;
    this.byAddress.set(address, n + 1);
    return true;
  }

  release(address: string): void {
    const n = (this.byAddress.get(address) ?? 0) - 1;
    this.total = Math.max(0, this.total - 1);
    if (n > 0) this.byAddress.set(address, n);
    else this.byAddress.delete(address);
  }

  get open(): number {
    return this.total;
  }
}
