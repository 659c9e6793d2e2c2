import { twinPath } from '../../shared/markdown-twin';
import { twinText } from '../pages/markdown-twins';
import { absoluteUrl, type SeoLink, type SeoSources } from './seo-sources';

/** One Markdown list line; brackets in a name and spaces in a URL would break the link syntax. */
function linkLine(siteUrl: string, link: SeoLink): string {
  const name = link.name.replace(/[[\]]/g, (char) => `\\${char}`);
  // Each link names the page's Markdown twin, as llmstxt.org proposes.
  const url = absoluteUrl(siteUrl, twinPath(link.path)).replace(/ /g, '%20').replace(/\)/g, '%29');
  return `- [${name}](${url}): ${link.description.replace(/\s+/g, ' ').trim()}`;
}

/**
 * /llms.txt as llmstxt.org proposes: an H1 with the name, a blockquote summary, a paragraph, then
 * H2 sections of links. "Optional" is the section the format lets a short-of-space reader skip.
 */
export function buildLlmsTxt({ siteUrl, site, services, articles, legalPages }: SeoSources): string {
  const line = (link: SeoLink) => linkLine(siteUrl, link);
  return [
    `# ${site.brand}`,
    '',
    `> ${site.brand} is a UK LLM-SEO agency: it gets businesses recommended by AI assistants such as ChatGPT, Claude, Gemini and Perplexity when customers ask them who to use.`,
    '',
    `${site.brand} is a trading name of ${site.legalName} (registered in ${site.registeredIn}, company number ${site.companyNumber}), based in ${site.location.headquarters}. ` +
      `Work starts with a free AI visibility audit that tests the prompts a business's customers ask AI assistants and reports within ${site.responseTime}. ` +
      `Contact: ${site.email} or ${site.phone}, ${site.businessHours}. ` +
      `Every page is also served as Markdown (the links below); every article in full is at ${absoluteUrl(siteUrl, '/llms-full.txt')}.`,
    '',
    '## Services',
    '',
    ...services.map(line),
    '',
    '## Articles',
    '',
    ...articles.map((article) => line({ name: article.title, path: article.path, description: article.excerpt })),
    '',
    '## Optional',
    '',
    ...legalPages.map((page) => line({ name: page.title, path: `/${page.slug}`, description: page.description })),
    '',
  ].join('\n');
}

/** /llms-full.txt: every article's Markdown twin, in blog order, in one file. */
export function buildLlmsFullTxt({ siteUrl, site, twins }: SeoSources): string {
  return [
    `# ${site.brand}: every article in full`,
    '',
    `> The full text of every article on ${siteUrl}, as Markdown. Each starts with its own header; the index is ${absoluteUrl(siteUrl, '/llms.txt')}.`,
    '',
    ...twins.map((twin) => twinText(twin, siteUrl)),
  ].join('\n');
}
