import { randomBytes, randomInt } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { eq, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sha256Hex } from '../../core/auth/index.js';
import type { AppContext } from '../../core/context.js';
import { limitByIp } from '../../core/rateLimit.js';
import { type Db } from '../../core/db/index.js';
import { authCaptcha } from './tables.js';

const TTL_MS = 5 * 60_000;
const WIDTH = 130;
const HEIGHT = 48;
/** Characters that cannot be mistaken for one another (no 0/O, 1/I/L, 2/Z, 5/S, 8/B). */
const ALPHABET = '34679ACDEFGHJKMNPQRTUVWXY';

/** 5×7 glyphs, one string of 7 rows of 5 bits per character. */
const GLYPHS: Record<string, string> = {
  '3': '11110000010000101110000010000111110', '4': '00010001100101010010111110001000010',
  '6': '00110010001000011110100011000101110', '7': '11111000010001000100010000100001000',
  '9': '01110100011000101111000010001001100', A: '01110100011000110001111111000110001',
  C: '01110100011000010000100001000101110', D: '11100100101000110001100011001011100',
  E: '11111100001000011110100001000011111', F: '11111100001000011110100001000010000',
  G: '01110100011000010111100011000101111', H: '10001100011000111111100011000110001',
  J: '00111000100001000010000101001001100', K: '10001100101010011000101001001010001',
  M: '10001110111010110101100011000110001', N: '10001100011100110101100111000110001',
  P: '11110100011000111110100001000010000', Q: '01110100011000110001101011001001101',
  R: '11110100011000111110101001001010001', T: '11111001000010000100001000010000100',
  U: '10001100011000110001100011000101110', V: '10001100011000110001100010101000100',
  W: '10001100011000110101101011010101010', X: '10001100010101000100010101000110001',
  Y: '10001100010101000100001000010000100',
};

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Encodes RGB pixels as a PNG. */
function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    Buffer.from(rgb.buffer, rgb.byteOffset + y * width * 3, width * 3).copy(raw, y * (width * 3 + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Draws the code with per-glyph jitter, colour and slant over noise lines and dots. */
export function renderCaptcha(code: string): Buffer {
  const px = new Uint8Array(WIDTH * HEIGHT * 3).fill(246);
  const set = (x: number, y: number, c: readonly number[]) => {
    if (x < 0 || y < 0 || x >= WIDTH || y >= HEIGHT) return;
    px.set(c, (y * WIDTH + x) * 3);
  };
  const colour = () => [randomInt(20, 140), randomInt(20, 140), randomInt(20, 140)];
  for (let i = 0; i < 5; i++) {
    const c = [randomInt(120, 220), randomInt(120, 220), randomInt(120, 220)];
    let y = randomInt(4, HEIGHT - 4);
    for (let x = 0; x < WIDTH; x++) {
      y = Math.min(HEIGHT - 1, Math.max(0, y + randomInt(-1, 2)));
      set(x, y, c);
    }
  }
  for (let i = 0; i < 250; i++) set(randomInt(0, WIDTH), randomInt(0, HEIGHT), colour());
  const scale = 4;
  [...code].forEach((ch, i) => {
    const glyph = GLYPHS[ch] ?? '';
    const c = colour();
    const ox = 8 + i * 24 + randomInt(-2, 3);
    const oy = 8 + randomInt(-4, 5);
    const slant = (randomInt(-3, 4)) / 10;
    for (let row = 0; row < 7; row++) {
      for (let col = 0; col < 5; col++) {
        if (glyph[row * 5 + col] !== '1') continue;
        for (let dy = 0; dy < scale; dy++) {
          for (let dx = 0; dx < scale - 1; dx++) {
            const y = oy + row * (scale + 0) + dy - 2;
            set(ox + col * (scale - 1) + dx + Math.round(slant * (y - oy - 14)), y, c);
          }
        }
      }
    }
  });
  return encodePng(WIDTH, HEIGHT, px);
}

export function newCaptchaCode(length = 5): string {
  return Array.from({ length }, () => ALPHABET[randomInt(0, ALPHABET.length)]).join('');
}

let generate = newCaptchaCode;
/** Lets tests know the code they are shown (the image is the only other place it appears). */
export function setCaptchaGenerator(fn: () => string): void {
  generate = fn;
}

/** Checks and deletes a captcha in one step: each key is good for one attempt, right or wrong. */
export async function consumeCaptcha(db: Db, key: string, code: string): Promise<boolean> {
  const [row] = await db.delete(authCaptcha).where(eq(authCaptcha.key, key.slice(0, 64))).returning();
  if (!row || row.expireTime.getTime() < Date.now()) return false;
  return row.codeHash === sha256Hex(code.trim().toUpperCase());
}

/** The captcha answer: the raw object, no envelope (BladeX answers it so, and Saber reads `res.data.key`). */
const captchaAnswer = z.object({
  key: z.string().describe('send back as the Captcha-Key header of the captcha grant'),
  image: z.string().describe('the code to read, as a PNG data URL (data:image/png;base64,…)'),
});
export type CaptchaAnswer = z.infer<typeof captchaAnswer>;

/** Captchas one address may ask for per minute: a person needs a few, a script is stopped. */
export const CAPTCHAS_PER_ADDRESS = { name: 'captcha', max: 30, windowSeconds: 60 };

export function registerCaptchaRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/blade-auth/oauth/captcha', {
    config: { access: { public: true } },
    schema: {
      tags: ['blade-auth'],
      summary: 'A single-use image captcha, valid 5 minutes; answers the raw { key, image } object (no envelope), image a PNG data URL',
      response: { 200: captchaAnswer },
      docsOnly: { noInput: true },
    },
  }, async (req): Promise<CaptchaAnswer> => {
    // each captcha is a row: a bound per address keeps the table from being flooded
    await limitByIp(ctx, req, CAPTCHAS_PER_ADDRESS);
    const code = generate();
    const key = randomBytes(16).toString('hex');
    await ctx.db.delete(authCaptcha).where(lt(authCaptcha.expireTime, new Date()));
    await ctx.db.insert(authCaptcha).values({ key, codeHash: sha256Hex(code), expireTime: new Date(Date.now() + TTL_MS) });
    return { key, image: `data:image/png;base64,${renderCaptcha(code).toString('base64')}` };
  });
}
