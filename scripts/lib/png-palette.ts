/**
 * Re-encodes a Chromium screenshot as an 8-bit palette PNG, with no image library: Chromium writes
 * true-colour PNGs with fast compression, and its gradients are dithered, so a 1200x630 card comes
 * out at a few hundred KB. The brand images are flat shapes, text and soft glows, which 256 colours
 * chosen by a variance-splitting median cut render without visible banding, at a fraction of the size.
 * Handles what Chromium writes: 8-bit RGB or RGBA, not interlaced.
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface RgbaImage {
  width: number;
  height: number;
  /** 4 bytes a pixel, rows top to bottom. */
  pixels: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(png: Buffer): RgbaImage {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const [depth, colourType, , , interlace] = [data[8], data[9], data[10], data[11], data[12]];
      channels = colourType === 6 ? 4 : colourType === 2 ? 3 : 0;
      if (depth !== 8 || channels === 0 || interlace !== 0) throw new Error('unsupported PNG: only 8-bit RGB or RGBA, not interlaced');
    } else if (type === 'IDAT') {
      idat.push(data);
    }
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    const source = y * (stride + 1) + 1;
    const row = y * stride;
    for (let x = 0; x < stride; x += 1) {
      const value = raw[source + x] ?? 0;
      const left = x >= channels ? (rows[row + x - channels] ?? 0) : 0;
      const up = y > 0 ? (rows[row - stride + x] ?? 0) : 0;
      const upLeft = y > 0 && x >= channels ? (rows[row - stride + x - channels] ?? 0) : 0;
      const predicted =
        filter === 0 ? 0 : filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth(left, up, upLeft) : NaN;
      if (Number.isNaN(predicted)) throw new Error(`bad PNG filter ${filter} on row ${y}`);
      rows[row + x] = (value + predicted) & 0xff;
    }
  }
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i += 1) {
    pixels[i * 4] = rows[i * channels] ?? 0;
    pixels[i * 4 + 1] = rows[i * channels + 1] ?? 0;
    pixels[i * 4 + 2] = rows[i * channels + 2] ?? 0;
    pixels[i * 4 + 3] = channels === 4 ? (rows[i * channels + 3] ?? 0) : 255;
  }
  return { width, height, pixels };
}

/** A set of distinct colours (packed RGBA) with how often each occurs. */
interface Box {
  colours: number[];
  counts: number[];
  /** Sum over its pixels of the squared distance to the box's mean: the error that splitting would cut. */
  error: number;
  mean: [number, number, number, number];
}

const channel = (colour: number, index: number) => (colour >>> (24 - index * 8)) & 0xff;

function makeBox(colours: number[], counts: number[]): Box {
  const sums = [0, 0, 0, 0];
  const squares = [0, 0, 0, 0];
  let total = 0;
  for (let i = 0; i < colours.length; i += 1) {
    // Weighted by the square root of the pixel count: a glow's thousands of pixels still win
    // colours, but not all of them, so the few pixels of anti-aliased edges keep theirs.
    const count = Math.sqrt(counts[i] ?? 0);
    total += count;
    for (let c = 0; c < 4; c += 1) {
      const value = channel(colours[i] ?? 0, c);
      sums[c] = (sums[c] ?? 0) + value * count;
      squares[c] = (squares[c] ?? 0) + value * value * count;
    }
  }
  const mean = sums.map((sum) => sum / total) as Box['mean'];
  const error = squares.reduce((sum, square, c) => sum + square - total * (mean[c] ?? 0) ** 2, 0);
  return { colours, counts, error, mean };
}

/** Splits the box along its widest-spread channel at the pixel-weighted median. */
function splitBox(box: Box): [Box, Box] {
  let axis = 0;
  let widest = -1;
  for (let c = 0; c < 4; c += 1) {
    let low = 255;
    let high = 0;
    for (const colour of box.colours) {
      const value = channel(colour, c);
      if (value < low) low = value;
      if (value > high) high = value;
    }
    if (high - low > widest) {
      widest = high - low;
      axis = c;
    }
  }
  const order = box.colours.map((_, i) => i).sort((a, b) => channel(box.colours[a] ?? 0, axis) - channel(box.colours[b] ?? 0, axis));
  const total = box.counts.reduce((sum, count) => sum + Math.sqrt(count), 0);
  let running = 0;
  let cut = 1;
  for (; cut < order.length; cut += 1) {
    running += Math.sqrt(box.counts[order[cut - 1] ?? 0] ?? 0);
    if (running >= total / 2) break;
  }
  const pick = (indices: number[]) => makeBox(indices.map((i) => box.colours[i] ?? 0), indices.map((i) => box.counts[i] ?? 0));
  return [pick(order.slice(0, cut)), pick(order.slice(cut))];
}

/** How much of each pixel's error its neighbours take: below 1 keeps flat areas from speckling. */
const DITHER = 0.8;
/** Largest per-channel error still treated as gradient banding and diffused. */
const EDGE_ERROR = 16;

const clamp = (value: number) => Math.min(255, Math.max(0, Math.round(value)));

/**
 * A box's palette entry: its most frequent colour when that colour dominates (so white text, the
 * navy ground and the brand colours stay exact), else its pixel-weighted mean.
 */
function representative(box: Box): number[] {
  let top = 0;
  for (let i = 1; i < box.counts.length; i += 1) if ((box.counts[i] ?? 0) > (box.counts[top] ?? 0)) top = i;
  const total = box.counts.reduce((sum, count) => sum + count, 0);
  if ((box.counts[top] ?? 0) * 4 >= total) return [0, 1, 2, 3].map((c) => channel(box.colours[top] ?? 0, c));
  return box.mean.map((value) => Math.round(value));
}

/** Nearest palette entry by squared RGBA distance, remembered per colour (dithered runs repeat a lot). */
function nearestIndex(palette: number[][]): (rgba: number[]) => number {
  const cache = new Map<number, number>();
  return (rgba) => {
    const key = (((rgba[0] ?? 0) << 24) | ((rgba[1] ?? 0) << 16) | ((rgba[2] ?? 0) << 8) | (rgba[3] ?? 0)) >>> 0;
    const known = cache.get(key);
    if (known !== undefined) return known;
    let best = 0;
    let bestDistance = Infinity;
    for (let p = 0; p < palette.length; p += 1) {
      const entry = palette[p] ?? [];
      let distance = 0;
      for (let c = 0; c < 4; c += 1) distance += ((rgba[c] ?? 0) - (entry[c] ?? 0)) ** 2;
      if (distance < bestDistance) {
        bestDistance = distance;
        best = p;
      }
    }
    cache.set(key, best);
    return best;
  };
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** Quantises the image to at most 256 colours (alpha included) and writes it as a palette PNG. */
export function encodePalettePng(image: RgbaImage): Buffer {
  const { width, height, pixels } = image;
  const view = new DataView(pixels.buffer, pixels.byteOffset, pixels.byteLength);
  const histogram = new Map<number, number>();
  for (let i = 0; i < width * height; i += 1) {
    // Fully transparent pixels are one colour whatever their RGB says.
    const colour = pixels[i * 4 + 3] === 0 ? 0 : view.getUint32(i * 4);
    histogram.set(colour, (histogram.get(colour) ?? 0) + 1);
  }
  const boxes = [makeBox([...histogram.keys()], [...histogram.values()])];
  while (boxes.length < 256) {
    let worst = -1;
    for (let i = 0; i < boxes.length; i += 1) {
      const box = boxes[i];
      if (box && box.colours.length > 1 && (worst < 0 || box.error > (boxes[worst]?.error ?? 0))) worst = i;
    }
    const box = boxes[worst];
    if (!box) break;
    boxes.splice(worst, 1, ...splitBox(box));
  }
  const palette = boxes.map(representative);
  const nearest = nearestIndex(palette);
  const raw = Buffer.alloc((width + 1) * height);
  // Floyd-Steinberg error diffusion: without it 256 colours band visibly across a soft glow.
  let errors = new Float32Array((width + 2) * 4);
  let nextErrors = new Float32Array((width + 2) * 4);
  for (let y = 0; y < height; y += 1) {
    raw[y * (width + 1)] = 0; // filter None: on palette indices the others only add noise
    for (let x = 0; x < width; x += 1) {
      const i = y * width + x;
      const wanted = [0, 1, 2, 3].map((c) => clamp((pixels[i * 4 + c] ?? 0) + (errors[(x + 1) * 4 + c] ?? 0) * DITHER));
      const index = nearest(wanted);
      raw[y * (width + 1) + 1 + x] = index;
      const entry = palette[index] ?? [];
      // A large error means an edge, not a gradient: spreading it would only fringe the edge.
      const edge = [0, 1, 2, 3].some((c) => Math.abs((wanted[c] ?? 0) - (entry[c] ?? 0)) > EDGE_ERROR);
      for (let c = 0; c < 4; c += 1) {
        const error = edge ? 0 : (wanted[c] ?? 0) - (entry[c] ?? 0);
        errors[(x + 2) * 4 + c] = (errors[(x + 2) * 4 + c] ?? 0) + (error * 7) / 16;
        nextErrors[x * 4 + c] = (nextErrors[x * 4 + c] ?? 0) + (error * 3) / 16;
        nextErrors[(x + 1) * 4 + c] = (nextErrors[(x + 1) * 4 + c] ?? 0) + (error * 5) / 16;
        nextErrors[(x + 2) * 4 + c] = (nextErrors[(x + 2) * 4 + c] ?? 0) + error / 16;
      }
    }
    [errors, nextErrors] = [nextErrors, errors];
    nextErrors.fill(0);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 3; // colour type: palette
  const plte = Buffer.from(palette.flatMap((entry) => entry.slice(0, 3)));
  const alphas = palette.map((entry) => entry[3] ?? 255);
  const chunks = [chunk('IHDR', header), chunk('PLTE', plte)];
  if (alphas.some((alpha) => alpha < 255)) chunks.push(chunk('tRNS', Buffer.from(alphas)));
  chunks.push(chunk('IDAT', deflateSync(raw, { level: 9, memLevel: 9 })), chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat([SIGNATURE, ...chunks]);
}
