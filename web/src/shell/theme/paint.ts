import type { Paint } from './themes';

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `#RRGGBB` (upper case) for a 3- or 6-digit hex colour with or without `#`; null for anything else. */
export function normaliseHex(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = HEX.exec(value.trim());
  if (!m?.[1]) return null;
  const digits = m[1].length === 3 ? [...m[1]].map((d) => d + d).join('') : m[1];
  return `#${digits.toUpperCase()}`;
}

/** The colour at an opacity, as `rgba()`; opacity 1 gives the colour itself. */
export function fade(hex: string, alpha: number): string {
  const norm = normaliseHex(hex);
  if (!norm) throw new Error(`not a hex colour: ${hex}`);
  if (alpha >= 1) return norm;
  const n = Number.parseInt(norm.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha})`;
}

/** A palette entry as CSS: the primary colour where the palette asks for it. */
export function resolvePaint(paint: Paint, primary: string): string {
  return typeof paint === 'string' ? paint : fade(primary, paint.primary);
}
