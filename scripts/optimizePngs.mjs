// Re-encodes PNG pictures without changing a pixel, for a smaller package: browser screenshots are
// written for speed (zlib at its default level, a filter per row chosen in a hurry), and the
// walkthrough and README pictures are about two thirds of the .vsix.
//   node scripts/optimizePngs.mjs [file.png...]   default: media/walkthrough/*.png and docs/images/*.png
// A file is rewritten only when the new encoding is smaller and decodes to the same pixels.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, crc32, deflateSync, inflateSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
const BYTES_PER_PIXEL = { 2: 3, 6: 4 }; // colour types RGB and RGBA, 8 bits a sample

function chunks(png) {
  const list = [];
  for (let p = SIGNATURE.length; p < png.length;) {
    const length = png.readUInt32BE(p);
    list.push({ type: png.toString('latin1', p + 4, p + 8), data: png.subarray(p + 8, p + 8 + length) });
    p += 12 + length;
  }
  return list;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The predictor of PNG filter `filter` for byte `x` of row `y` (a: left, b: above, c: above left). */
function predict(filter, px, stride, bpp, y, x) {
  const a = x >= bpp ? px[y * stride + x - bpp] : 0;
  const b = y > 0 ? px[(y - 1) * stride + x] : 0;
  if (filter === 1) return a;
  if (filter === 2) return b;
  if (filter === 3) return (a + b) >> 1;
  if (filter === 4) {
    const c = x >= bpp && y > 0 ? px[(y - 1) * stride + x - bpp] : 0;
    const p = a + b - c;
    const pa = Math.abs(p - a);
    const pb = Math.abs(p - b);
    const pc = Math.abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
  }
  return 0;
}

/** The image's pixels, unfiltered, and its header; undefined for a kind this script leaves alone. */
function decode(png) {
  if (!png.subarray(0, 8).equals(SIGNATURE)) return undefined;
  const list = chunks(png);
  const ihdr = list[0]?.type === 'IHDR' ? list[0].data : undefined;
  if (!ihdr || list.some((c) => !['IHDR', 'IDAT', 'IEND'].includes(c.type))) return undefined;
  const [depth, colourType, , , interlace] = ihdr.subarray(8, 13);
  const bpp = BYTES_PER_PIXEL[colourType ?? -1];
  if (depth !== 8 || interlace !== 0 || bpp === undefined) return undefined;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  const raw = inflateSync(Buffer.concat(list.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const stride = width * bpp;
  const px = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++)
      px[y * stride + x] = raw[y * (stride + 1) + 1 + x] + predict(filter, px, stride, bpp, y, x);
  }
  return { ihdr, px, stride, bpp, height };
}

/** Filtered rows: one filter for every row, or (`adaptive`) per row the one with the smallest residues. */
function filterRows({ px, stride, bpp, height }, mode) {
  const raw = Buffer.alloc(height * (stride + 1));
  const row = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    let best = 0;
    let bestSum = Infinity;
    for (const filter of mode === 'adaptive' ? [0, 1, 2, 3, 4] : [mode]) {
      let sum = 0;
      for (let x = 0; x < stride; x++) {
        const d = (px[y * stride + x] - predict(filter, px, stride, bpp, y, x)) & 255;
        row[x] = d;
        sum += d < 128 ? d : 256 - d;
      }
      if (sum < bestSum) {
        bestSum = sum;
        best = filter;
        row.copy(raw, y * (stride + 1) + 1);
      }
    }
    raw[y * (stride + 1)] = best;
  }
  return raw;
}

/** The smallest lossless encoding found, or undefined when the file is not one this script handles. */
export function optimize(png) {
  const image = decode(png);
  if (!image) return undefined;
  let best;
  for (const mode of [0, 'adaptive']) {
    const raw = filterRows(image, mode);
    for (const strategy of [constants.Z_DEFAULT_STRATEGY, constants.Z_FILTERED]) {
      const idat = deflateSync(raw, { level: 9, memLevel: 9, strategy });
      if (!best || idat.length < best.length) best = idat;
    }
  }
  const out = Buffer.concat([
    SIGNATURE,
    chunk('IHDR', image.ihdr),
    chunk('IDAT', best),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return decode(out)?.px.equals(image.px) ? out : undefined;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const pictures = (dir) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => f.endsWith('.png'))
      .map((f) => join(ROOT, dir, f));
  const files =
    process.argv.length > 2 ? process.argv.slice(2) : [...pictures('media/walkthrough'), ...pictures('docs/images')];
  let saved = 0;
  for (const file of files) {
    const before = readFileSync(file);
    const after = optimize(before);
    if (after && after.length < before.length) {
      writeFileSync(file, after);
      saved += before.length - after.length;
      console.log(`${file}: ${before.length} → ${after.length} bytes`);
    } else {
      console.log(`${file}: kept (${after ? 'already as small' : 'not 8-bit RGB or RGBA'})`);
    }
  }
  console.log(`Saved ${(saved / 1024).toFixed(1)} KB`);
}
