/**
 * The social card of each article (og:image, twitter:image and the Article JSON-LD image): a
 * 1200x630 PNG with the article's title, its category and the brand, made by the build with sharp.
 * The shapes are an SVG that librsvg draws; the words are set by Pango through sharp's text input,
 * which wraps a long title at word boundaries with the real font metrics. The font is Inter from
 * the npm registry (never the machine's fontconfig fonts), so every machine draws the same image.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { palette } from '../../client/theme/theme';
import { SOCIAL_IMAGE_SIZE, socialImageFile } from '../../shared/social-image';

const { width: WIDTH, height: HEIGHT } = SOCIAL_IMAGE_SIZE;
const MARGIN = 80;
const TEXT_WIDTH = WIDTH - 2 * MARGIN;
/** The band the title sits in, between the brand row and the footer. */
const TITLE_TOP = 172;
const TITLE_BOTTOM = 482;
/** Largest first: the first size at which the title fits its band wins. */
const TITLE_SIZES = [76, 68, 60, 54, 48, 44];

const fontDir = path.dirname(require.resolve('@expo-google-fonts/inter/package.json'));
const fonts = {
  title: { file: path.join(fontDir, '800ExtraBold', 'Inter_800ExtraBold.ttf'), face: 'Inter ExtraBold' },
  brand: { file: path.join(fontDir, '700Bold', 'Inter_700Bold.ttf'), face: 'Inter Bold' },
  label: { file: path.join(fontDir, '600SemiBold', 'Inter_600SemiBold.ttf'), face: 'Inter SemiBold' },
  body: { file: path.join(fontDir, '500Medium', 'Inter_500Medium.ttf'), face: 'Inter Medium' },
};

export interface SocialCard {
  slug: string;
  title: string;
  category: string;
}

export interface Brand {
  name: string;
  tagline: string;
  /** The brand mark as SVG (client/public/favicon.svg). */
  markSvg: string;
}

/** Pango markup is XML: text goes in escaped. */
const escapeMarkup = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** Curly apostrophes for display: content is typed with straight ones. */
const typographic = (value: string) => value.replace(/(\w)'(\w)/g, '$1\u2019$2');

interface TextLayer {
  input: Buffer;
  width: number;
  height: number;
}

/**
 * Words set by Pango in one of the Inter faces, `size` pixels high (72 dpi: a point is a pixel),
 * wrapped at `maxWidth`. Returns the transparent PNG and its size.
 */
async function textLayer(text: string, font: { file: string; face: string }, size: number, colour: string, maxWidth: number, options: { letterSpacing?: number } = {}): Promise<TextLayer> {
  const spacing = options.letterSpacing ? ` letter_spacing="${Math.round(options.letterSpacing * 1024)}"` : '';
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${colour}"${spacing}>${escapeMarkup(typographic(text))}</span>`,
      font: `${font.face} ${size}`,
      fontfile: font.file,
      width: maxWidth,
      dpi: 72,
      rgba: true,
      // Between words; inside a word only when it is wider than the line on its own.
      wrap: 'word-char',
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { input: data, width: info.width, height: info.height };
}

/** The title at the largest size that fits its band. */
async function titleLayer(title: string): Promise<TextLayer & { size: number }> {
  for (const size of TITLE_SIZES) {
    const layer = await textLayer(title, fonts.title, size, palette.onDark, TEXT_WIDTH, { letterSpacing: -size * 0.025 });
    if (layer.width <= TEXT_WIDTH && layer.height <= TITLE_BOTTOM - TITLE_TOP) return { ...layer, size };
  }
  throw new Error(`social image: the title "${title}" does not fit at ${TITLE_SIZES.at(-1)} px; shorten it`);
}

/** The card without its words: the brand's dark ground and glows, the category pill, the gradient bar. */
function background(pill: { x: number; y: number; width: number; height: number }): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
<defs>
  <radialGradient id="violet" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="${palette.primary}" stop-opacity="0.6"/><stop offset="1" stop-color="${palette.primary}" stop-opacity="0"/></radialGradient>
  <radialGradient id="blue" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="${palette.accent}" stop-opacity="0.55"/><stop offset="1" stop-color="${palette.accent}" stop-opacity="0"/></radialGradient>
  <linearGradient id="bar" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${palette.primary}"/><stop offset="0.55" stop-color="${palette.accent}"/><stop offset="1" stop-color="${palette.electric}"/></linearGradient>
</defs>
<rect width="${WIDTH}" height="${HEIGHT}" fill="${palette.surfaceDark}"/>
<circle cx="110" cy="-30" r="490" fill="url(#violet)"/>
<circle cx="1190" cy="650" r="550" fill="url(#blue)"/>
<rect x="${pill.x}" y="${pill.y}" width="${pill.width}" height="${pill.height}" rx="${pill.height / 2}" fill="#ffffff" fill-opacity="0.07" stroke="#ffffff" stroke-opacity="0.16"/>
<circle cx="${pill.x + 26}" cy="${pill.y + pill.height / 2}" r="6" fill="${palette.electric}"/>
<rect x="0" y="${HEIGHT - 10}" width="${WIDTH}" height="10" fill="url(#bar)"/>
</svg>`;
  return Buffer.from(svg);
}

/** One article's card as a palette PNG. */
export async function renderSocialImage(card: SocialCard, brand: Brand): Promise<Buffer> {
  const markSize = 64;
  const [title, brandName, category, tagline, mark] = await Promise.all([
    titleLayer(card.title),
    textLayer(brand.name, fonts.brand, 40, palette.onDark, 600, { letterSpacing: -0.8 }),
    textLayer(card.category, fonts.label, 24, palette.onDark, 600),
    textLayer(brand.tagline, fonts.body, 28, palette.onDarkMuted, TEXT_WIDTH),
    sharp(Buffer.from(brand.markSvg), { density: (72 * markSize) / 32 }).resize(markSize, markSize).png().toBuffer(),
  ]);
  const headerTop = 72;
  const headerMiddle = headerTop + markSize / 2;
  const pill = { width: category.width + 70, height: 52, x: 0, y: headerMiddle - 26 };
  pill.x = WIDTH - MARGIN - pill.width;
  const layers: OverlayOptions[] = [
    { input: mark, left: MARGIN, top: headerTop },
    { input: brandName.input, left: MARGIN + markSize + 20, top: Math.round(headerMiddle - brandName.height / 2) },
    { input: category.input, left: pill.x + 46, top: Math.round(headerMiddle - category.height / 2) },
    // The title's last line rests on the band's floor, so that short and long titles end level.
    { input: title.input, left: MARGIN, top: TITLE_BOTTOM - title.height },
    { input: tagline.input, left: MARGIN, top: HEIGHT - 62 - tagline.height },
  ];
  const png = await sharp(background(pill)).composite(layers).png().toBuffer();
  // A palette of at most 256 colours, as for the site's own card; no dithering on the dark gradients.
  return sharp(png).png({ palette: true, quality: 90, effort: 7, compressionLevel: 9, dither: 0 }).toBuffer();
}

/** What an image is made from: when none of it changed, the last build's file is reused. */
function inputsKey(card: SocialCard, brand: Brand, design: string): string {
  return createHash('sha256').update(design).update(JSON.stringify({ card, brand, palette })).digest('hex').slice(0, 32);
}

/** This module and the font files: a new design or a new Inter release redraws every card. */
function designDigest(): string {
  const hash = createHash('sha256').update(readFileSync(__filename));
  for (const font of Object.values(fonts)) hash.update(readFileSync(font.file));
  return hash.digest('hex');
}

/**
 * Every article's card into `outDir` (dist/client/social/<slug>.png), made in parallel. A card
 * whose inputs are unchanged is copied from `cacheDir` instead of drawn again. Returns how many
 * were drawn.
 */
export async function renderSocialImages(cards: SocialCard[], brand: Brand, outDir: string, cacheDir: string): Promise<{ drawn: number; reused: number }> {
  mkdirSync(outDir, { recursive: true });
  mkdirSync(cacheDir, { recursive: true });
  let drawn = 0;
  const design = designDigest();
  const cacheName = (card: SocialCard) => `${card.slug}-${inputsKey(card, brand, design)}.png`;
  const current = new Set(cards.map(cacheName));
  // Cards of renamed, retitled or removed articles would otherwise pile up.
  for (const name of readdirSync(cacheDir)) if (!current.has(name)) rmSync(path.join(cacheDir, name), { force: true });
  await Promise.all(
    cards.map(async (card) => {
      const cached = path.join(cacheDir, cacheName(card));
      let png: Buffer;
      if (existsSync(cached)) {
        png = readFileSync(cached);
      } else {
        png = await renderSocialImage(card, brand);
        writeFileSync(cached, png);
        drawn += 1;
      }
      writeFileSync(path.join(outDir, socialImageFile(card.slug)), png);
    }),
  );
  return { drawn, reused: cards.length - drawn };
}
