/** File types recognised by their first bytes (the name and the browser's claim are not trusted). */
export interface Sniffed {
  contentType: string;
  extension: string;
}

const SIGNATURES: ReadonlyArray<{ test: (b: Buffer) => boolean; type: Sniffed }> = [
  { test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), type: { contentType: 'image/png', extension: 'png' } },
  { test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff, type: { contentType: 'image/jpeg', extension: 'jpg' } },
  { test: (b) => b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a', type: { contentType: 'image/gif', extension: 'gif' } },
  { test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP', type: { contentType: 'image/webp', extension: 'webp' } },
  { test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-', type: { contentType: 'application/pdf', extension: 'pdf' } },
  { test: (b) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04, type: { contentType: 'application/zip', extension: 'zip' } },
  { test: (b) => b[0] === 0x1f && b[1] === 0x8b, type: { contentType: 'application/gzip', extension: 'gz' } },
];

/** Bytes needed to recognise every signature above. */
export const SNIFF_BYTES = 12;

export function sniff(head: Buffer): Sniffed | null {
  return SIGNATURES.find((s) => s.test(head))?.type ?? null;
}

/** Types a browser may display inline from our origin; everything else is served as a download. */
export const INLINE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf']);
