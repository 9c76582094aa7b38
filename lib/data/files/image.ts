import sharp from 'sharp';
import { HearthError } from '@/lib/shared/errors';

/**
 * Images attached to a message. They are recognised by their first bytes, never by name or
 * declared type, and stored once as what the model will see: turned upright (EXIF orientation),
 * scaled down to at most IMAGE_MAX_SIDE on the longest side, and re-encoded, which also drops
 * EXIF (camera, GPS location), XMP and other metadata from what is kept and sent. A GIF keeps
 * its first frame, as PNG. Decoding is sharp's (libvips), never hand-written.
 */

/** What vision models work at: larger images only cost context. */
export const IMAGE_MAX_SIDE = 1536;
/** A decoded image may hold at most this many pixels (a "decompression bomb" is refused). */
const MAX_INPUT_PIXELS = 100_000_000;

const SIGNATURES: [string, (b: Uint8Array) => boolean][] = [
  [
    'image/png',
    (b) =>
      b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a,
  ],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => /^GIF8[79]a/.test(Buffer.from(b.subarray(0, 6)).toString('latin1'))],
  [
    'image/webp',
    (b) => Buffer.from(b.subarray(0, 4)).toString('latin1') === 'RIFF' && Buffer.from(b.subarray(8, 12)).toString('latin1') === 'WEBP',
  ],
  ['image/avif', (b) => Buffer.from(b.subarray(4, 12)).toString('latin1') === 'ftypavif'],
];

/** The image type of these bytes by their signature, or null. */
export function imageType(bytes: Uint8Array): string | null {
  return SIGNATURES.find(([, matches]) => matches(bytes))?.[0] ?? null;
}

/** The types an upload may be (AVIF is only shown from the web, not attached). */
export const ATTACHABLE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

export type PreparedImage = { bytes: Buffer; mime: string; width: number; height: number };

export async function prepareImage(input: Buffer, name: string): Promise<PreparedImage> {
  const type = imageType(input);
  try {
    const image = sharp(input, { animated: false, limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: IMAGE_MAX_SIDE, height: IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true });
    // Re-encoded in its own kind (a GIF's first frame as PNG); sharp keeps no metadata unless asked.
    const encoded =
      type === 'image/jpeg'
        ? image.jpeg({ quality: 85, mozjpeg: true })
        : type === 'image/webp'
          ? image.webp({ quality: 85 })
          : image.png({ compressionLevel: 9 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    const mime = type === 'image/jpeg' ? 'image/jpeg' : type === 'image/webp' ? 'image/webp' : 'image/png';
    return { bytes: data, mime, width: info.width, height: info.height };
  } catch (err) {
    if (/pixel limit/i.test((err as Error).message))
      throw new HearthError('too_large', `${name} has more than ${MAX_INPUT_PIXELS / 1e6} million pixels.`);
    throw new HearthError(
      'unsupported_type',
      `${name} looks like an image but could not be read as one (${(err as Error).message.split('\n')[0].slice(0, 120)}).`,
    );
  }
}
