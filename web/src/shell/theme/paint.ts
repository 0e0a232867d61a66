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

/** A palette entry as CSS: the primary colour where the palette asks for it, or an ink readable on it. */
export function resolvePaint(paint: Paint, primary: string): string {
  if (typeof paint === 'string') return paint;
  if ('inkOnPrimary' in paint) return inkOn(primary);
  return fade(primary, paint.primary);
}

/** [r, g, b, a] of a `#hex`, `rgb()`/`rgba()` or `transparent` colour; null for anything else (gradients). */
export function parseColour(value: string): [number, number, number, number] | null {
  const v = value.trim().toLowerCase();
  if (v === 'transparent') return [0, 0, 0, 0];
  const hex = normaliseHex(v);
  if (hex) {
    const n = Number.parseInt(hex.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255, 1];
  }
  const m = /^rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)$/.exec(v);
  if (!m) return null;
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
}

/** WCAG relative luminance of an opaque colour. */
export function luminance([r, g, b]: readonly number[]): number {
  const lin = (c = 0) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/**
 * A neutral ink readable on a background (composited over `under` when see-through): dark on light
 * backgrounds, white on dark ones. For marks such as a tab's close button, whatever the theme's colours.
 */
export function inkOn(background: string, under = '#ffffff'): string {
  const bg = parseColour(background);
  const base = parseColour(under) ?? [255, 255, 255, 1];
  if (!bg) return 'rgba(0,0,0,0.65)';
  const mix = [0, 1, 2].map((i) => (bg[i] ?? 0) * bg[3] + (base[i] ?? 0) * (1 - bg[3]));
  return luminance(mix) > 0.35 ? 'rgba(0,0,0,0.65)' : 'rgba(255,255,255,0.9)';
}
