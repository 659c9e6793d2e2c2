/**
 * Renders the brand images: client/public/og-image.png (the social card of every page but the
 * articles, whose own cards the build draws; 1200x630), client/public/logo.png (the publisher
 * logo of the JSON-LD, 512x512) and client/public/favicon.ico (16, 32 and 48 px, for the clients
 * that ask for /favicon.ico whatever the page links; browsers use favicon.svg).
 * Each image is an HTML page screenshotted by Chromium, then reduced to a palette PNG by sharp, so
 * the design is edited here as markup and re-rendered with `npm run images` (Chromium from
 * Debian's packages, as for the browser tests); the PNGs are committed, the site never renders
 * them at run time.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import pngToIco from 'png-to-ico';
import sharp from 'sharp';
import { siteContent } from '../shared/generated/site';
import { palette } from '../client/theme/theme';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './lib/chromium';

const root = path.resolve(__dirname, '..');
const publicDir = path.join(root, 'client', 'public');

/** The brand mark, the same file the browser tab shows, so the two never drift apart. */
const markSvg = readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8');
const markSrc = `data:image/svg+xml;base64,${Buffer.from(markSvg).toString('base64')}`;

// Arial resolves to Liberation Sans on Debian, a neo-grotesque that reads better large than the
// DejaVu Sans that system-ui falls back to there.
const fontStack = "'Inter', 'SF Pro Display', 'Segoe UI', 'Helvetica Neue', Arial, 'Liberation Sans', sans-serif";

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A theme colour (#rrggbb) at the given opacity, as #rrggbbaa. */
const withAlpha = (hex: string, opacity: number) => `${hex}${Math.round(opacity * 255).toString(16).padStart(2, '0')}`;

/** Curly apostrophes for display: the constants are typed with straight ones. */
const typographic = (value: string) => value.replace(/(\w)'(\w)/g, '$1\u2019$2');

function page(width: number, height: number, css: string, body: string): string {
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><style>
*{margin:0;padding:0;box-sizing:border-box}
html,body{width:${width}px;height:${height}px;overflow:hidden;background:transparent}
body{font-family:${fontStack};-webkit-font-smoothing:antialiased;text-rendering:geometricPrecision}
${css}
</style></head><body>${body}</body></html>`;
}

function ogImageHtml(): string {
  const css = `
.card{position:relative;width:1200px;height:630px;background:${palette.surfaceDark};overflow:hidden;color:${palette.onDark}}
.glow{position:absolute;border-radius:50%}
.glow.violet{width:980px;height:980px;left:-380px;top:-520px;background:radial-gradient(closest-side,${withAlpha(palette.primary, 0.6)},${withAlpha(palette.primary, 0)})}
.glow.blue{width:1100px;height:1100px;right:-460px;bottom:-640px;background:radial-gradient(closest-side,${withAlpha(palette.accent, 0.6)},${withAlpha(palette.accent, 0)})}
.grid{position:absolute;inset:0;
  background-image:linear-gradient(rgba(255,255,255,.055) 1px,transparent 1px),linear-gradient(90deg,rgba(255,255,255,.055) 1px,transparent 1px);
  background-size:60px 60px;background-position:-1px -1px;
  -webkit-mask-image:radial-gradient(ellipse 70% 90% at 78% 30%,#000 10%,transparent 70%)}
.content{position:absolute;left:80px;top:76px;right:80px;bottom:84px;display:flex;flex-direction:column}
.top{display:flex;align-items:center;justify-content:space-between}
.brand{display:flex;align-items:center;gap:20px}
.brand img{width:68px;height:68px;display:block;border-radius:17px;box-shadow:0 12px 36px ${withAlpha(palette.primary, 0.5)}}
.brand span{font-size:42px;font-weight:700;letter-spacing:-.02em}
.pill{display:flex;align-items:center;gap:12px;padding:12px 22px;border-radius:999px;font-size:22px;font-weight:600;color:${palette.onDark};
  background:rgba(255,255,255,.06);border:1px solid rgba(255,255,255,.14)}
.pill .dot{width:10px;height:10px;border-radius:50%;background:${palette.electric};box-shadow:0 0 12px ${palette.electric}}
h1{margin-top:auto;font-size:80px;line-height:1.05;font-weight:800;letter-spacing:-.035em}
h1 em{font-style:normal;color:${palette.electric}}
.tagline{margin-top:30px;font-size:30px;font-weight:500;color:${palette.onDarkMuted};letter-spacing:-.005em}
.bar{position:absolute;left:0;right:0;bottom:0;height:10px;background:linear-gradient(90deg,${palette.primary},${palette.accent} 55%,${palette.electric})}
`;
  const body = `<div class="card">
<div class="glow violet"></div><div class="glow blue"></div><div class="grid"></div>
<div class="content">
  <div class="top">
    <div class="brand"><img src="${markSrc}" alt=""><span>${escapeHtml(siteContent.brand)}</span></div>
    <div class="pill"><span class="dot"></span>Free AI visibility audit</div>
  </div>
  <h1>Get recommended by<br><em>ChatGPT, Claude and Gemini</em></h1>
  <p class="tagline">${escapeHtml(typographic(siteContent.tagline))}</p>
</div>
<div class="bar"></div>
</div>`;
  return page(1200, 630, css, body);
}

function logoHtml(): string {
  const css = `img{display:block;width:512px;height:512px}`;
  return page(512, 512, css, `<img src="${markSrc}" alt="">`);
}

interface BrandImage {
  file: string;
  width: number;
  height: number;
  html: string;
  /** The logo keeps the mark's transparent rounded corners; the card fills every pixel. */
  transparent: boolean;
  /** Crawlers and chat apps fetch these on every share: a design that outgrows this fails the run. */
  maxBytes: number;
}

async function main(): Promise<void> {
  const images: BrandImage[] = [
    { file: 'og-image.png', width: 1200, height: 630, html: ogImageHtml(), transparent: false, maxBytes: 120 * 1024 },
    { file: 'logo.png', width: 512, height: 512, html: logoHtml(), transparent: true, maxBytes: 40 * 1024 },
  ];
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  try {
    for (const image of images) {
      const context = await browser.newContext({ viewport: { width: image.width, height: image.height }, deviceScaleFactor: 1 });
      const tab = await context.newPage();
      await tab.setContent(image.html, { waitUntil: 'load' });
      await tab.evaluate(() => document.fonts.ready);
      const png = await tab.screenshot({ type: 'png', omitBackground: image.transparent, clip: { x: 0, y: 0, width: image.width, height: image.height } });
      await context.close();
      // A palette of at most 256 colours (libimagequant) at a fraction of the screenshot's size.
      // Without dithering: on these dark gradients it scatters visible dots, banding is not seen.
      const compact = await sharp(png).png({ palette: true, quality: 90, effort: 10, compressionLevel: 9, dither: 0 }).toBuffer();
      if (compact.length > image.maxBytes) {
        throw new Error(`${image.file} is ${compact.length} bytes, over its ${image.maxBytes}: simplify the design (fewer gradients)`);
      }
      writeFileSync(path.join(publicDir, image.file), compact);
      console.log(`${image.file}: ${image.width}x${image.height}, ${(compact.length / 1024).toFixed(1)} KB (screenshot ${(png.length / 1024).toFixed(1)} KB)`);
    }
  } finally {
    await browser.close();
  }
  // The vector mark drawn at each icon size (not scaled down from one bitmap), so small sizes stay sharp.
  const icons = await Promise.all([16, 32, 48].map((size) => sharp(Buffer.from(markSvg), { density: (72 * size) / 32 }).resize(size, size).png().toBuffer()));
  const ico = await pngToIco(icons);
  writeFileSync(path.join(publicDir, 'favicon.ico'), ico);
  console.log(`favicon.ico: 16, 32 and 48 px, ${(ico.length / 1024).toFixed(1)} KB`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
