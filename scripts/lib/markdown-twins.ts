import type { MarkdownTwin } from '../../shared/markdown-twin';
import { auditFields } from '../../shared/forms/audit-form';
import { contactFields } from '../../shared/forms/contact-form';
import { illustrativeLabel, illustrativeNotes } from '../../shared/illustrative';
import { routesPaths } from '../../shared/route-paths';
import type { StatSource } from '../../shared/content-schema';
import { splitArticleBody, type CompiledContent } from './content';

/**
 * The Markdown twin of every public page, made from the same content as the page: what an AI
 * assistant or crawler reads instead of the HTML. Links to the site stay root-relative here; the
 * server makes them absolute with SITE_URL, which only it knows.
 */

const paragraph = (...lines: (string | false | undefined)[]) => lines.filter(Boolean).join('\n');
const list = (items: readonly string[]) => items.map((item) => `- ${item}`).join('\n');
const section = (title: string, ...parts: (string | false | undefined)[]) => [`## ${title}`, ...parts.filter(Boolean)].join('\n\n');
/** The label an invented testimonial or case study carries on its page, as the twin says it. */
const illustrative = (kind: 'real' | 'illustrative', of?: keyof typeof illustrativeNotes) =>
  kind === 'illustrative' && `**${illustrativeLabel}.**${of ? ` ${illustrativeNotes[of]}` : ''}`;
/** A statistic's published source, cited after it, or nothing when it has none. */
const cited = (source: StatSource | undefined) => (source ? ` (source: ${source.publisher}, [${source.title.replace(/[[\]]/g, '\\$&')}](${source.url}), ${source.date})` : '');
const link = (text: string, path: string) => `[${text.replace(/[[\]]/g, '\\$&')}](${path})`;

/** An article body as Markdown: the interactive blocks become what they show. */
function articleMarkdown(source: string, file: string): string {
  const out = splitArticleBody(source, file).flatMap((part) => {
    if (part.kind === 'prose') return part.lines;
    const items = part.lines.filter((item) => item.trim() !== '').map((item) => item.replace(/^\s*[-*]\s+/, '').trim());
    switch (part.name) {
      case 'copy':
        return ['```text', ...part.lines, '```'];
      case 'checklist':
        return items.map((item) => `- [ ] ${item}`);
      case 'stats':
        return items.map((item) => {
          const [stat, label] = item.split('|').map((cell) => cell.trim());
          return `- **${stat}**: ${label}`;
        });
      case 'faq':
        return ['## Frequently asked questions', '', ...part.lines];
      default:
        return part.lines;
    }
  });
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** Every page that has a twin: each public, indexable page of the route table. */
export function buildMarkdownTwins(content: CompiledContent): MarkdownTwin[] {
  const { site, home, faq, processSteps, caseStudies, pages, articles, legal, sources } = content;
  const newest = [...articles.map((article) => article.summary.updated), ...legal.map((page) => page.updated)].sort().at(-1);
  const dated = (updated: string | undefined, published?: string) => ({ ...(published ? { published } : {}), ...(updated ? { updated } : {}) });
  const auditCta = `${link(home.hero.primaryCta, routesPaths.freeAudit)}: ${pages.freeAudit.offer.join('; ')}.`;

  const homeTwin: MarkdownTwin = {
    path: routesPaths.home,
    title: home.hero.title,
    description: home.seo.description,
    ...dated(newest),
    body: [
      paragraph(home.hero.lead),
      section(home.hero.promptsLabel, list(home.hero.prompts.map((prompt) => `"${prompt}"`))),
      list(home.hero.stats.map((item) => `**${item.stat}** ${item.label}${cited(item.source)}`)),
      paragraph(auditCta, `${link(home.hero.secondaryCta, routesPaths.howItWorks)}.`),
      section(home.aiShift.title, home.aiShift.lead, list(home.aiShift.stats.map((item) => `**${item.stat}**: ${item.description}${cited(item.source)}`)), ...home.aiShift.paragraphs),
      section(home.pillars.title, home.pillars.lead, ...home.pillars.items.map((item) => `### ${item.title}\n\n${item.description}`)),
      section(home.benefits.title, home.benefits.lead, list(home.benefits.items.map((item) => `**${item.title}**: ${item.description}`))),
      section(
        'What a client says',
        illustrative(home.testimonial.kind, 'testimonial'),
        `> ${home.testimonial.quote}\n>\n> ${home.testimonial.author}, ${home.testimonial.role}, ${home.testimonial.company}`,
      ),
      section(home.faq.title, home.faq.lead, ...faq.items.map((item) => `### ${item.question}\n\n${item.answer}`)),
      section(
        home.pricing.title,
        home.pricing.lead,
        ...home.pricing.plans.map((plan) => `### ${plan.name}: ${plan.price} (${plan.cadence})\n\n${plan.description}\n\n${list(plan.features)}`),
      ),
      section(home.closingCta.title, home.closingCta.lead, `${link(home.closingCta.button, routesPaths.freeAudit)}. ${home.closingCta.note}`),
      section(home.productLaunch.title, home.productLaunch.lead, list(home.productLaunch.bullets)),
      section(
        home.crawlerAccess.title,
        home.crawlerAccess.lead,
        `robots.txt:\n\n\`\`\`text\n${home.crawlerAccess.robotsSample.trim()}\n\`\`\``,
        `llms.txt:\n\n\`\`\`text\n${home.crawlerAccess.llmsSample.trim()}\n\`\`\``,
        home.crawlerAccess.note,
      ),
    ].join('\n\n'),
  };

  const howItWorks: MarkdownTwin = {
    path: routesPaths.howItWorks,
    title: processSteps.intro.title,
    description: processSteps.seo.description,
    ...dated(newest),
    body: [
      processSteps.intro.lead,
      ...processSteps.steps.map((step, index) => section(`Step ${index + 1}: ${step.title} (${step.duration})`, step.description, list(step.details))),
      section(processSteps.results.title, list(processSteps.results.items.map((item) => `**${item.stat}** ${item.label}`))),
      section(processSteps.cta.title, processSteps.cta.lead, `${link(processSteps.cta.button, routesPaths.freeAudit)}.`),
    ].join('\n\n'),
  };

  const caseStudiesTwin: MarkdownTwin = {
    path: routesPaths.caseStudies,
    title: caseStudies.intro.title,
    description: caseStudies.seo.description,
    ...dated(newest),
    body: [
      caseStudies.intro.lead,
      ...caseStudies.studies.map((study) =>
        section(
          `${study.client}: ${study.results.title}`,
          illustrative(study.kind, 'caseStudy'),
          `${study.industry}, ${study.location}.`,
          `### ${study.problem.title}\n\n${study.problem.description}\n\nPrompts customers asked:\n\n${list(study.problem.examples.map((example) => `"${example}"`))}\n\n${study.problem.summary}`,
          `### ${study.solution.title}\n\n${list(study.solution.steps)}`,
          `### Results (${study.results.timeframe})\n\n${study.results.description}\n\n${list(study.results.examples)}`,
          illustrative(study.testimonial.kind),
          `> ${study.testimonial.quote}\n>\n> ${study.testimonial.author}, ${study.testimonial.company}`,
          `The full story: ${link(articles.find((article) => article.summary.slug === study.article)?.summary.title ?? study.article, `/blog/${study.article}`)}.`,
        ),
      ),
    ].join('\n\n'),
  };

  const blog: MarkdownTwin = {
    path: routesPaths.blog,
    title: pages.blog.title,
    description: pages.blog.seo.description,
    ...dated(articles.map((article) => article.summary.updated).sort().at(-1)),
    body: [
      pages.blog.lead,
      ...articles.map(
        ({ summary }) =>
          `### ${link(summary.title, summary.path)}\n\n${summary.category}, ${summary.readMinutes} min read, updated ${summary.updated}.\n\n${summary.excerpt}`,
      ),
    ].join('\n\n'),
  };

  const freeAudit: MarkdownTwin = {
    path: routesPaths.freeAudit,
    title: pages.freeAudit.title,
    description: pages.freeAudit.seo.description,
    body: [
      pages.freeAudit.lead,
      list(pages.freeAudit.offer),
      section(
        pages.freeAudit.cardTitle,
        `${pages.freeAudit.cardLead} The form at ${link(pages.freeAudit.title, routesPaths.freeAudit)} asks for:`,
        list(auditFields.map((field) => field.label)),
        pages.freeAudit.privacyNote,
      ),
    ].join('\n\n'),
  };

  const readiness = pages.aiReadinessCheck;
  const aiReadinessCheck: MarkdownTwin = {
    path: routesPaths.aiReadinessCheck,
    title: readiness.title,
    description: readiness.seo.description,
    body: [
      readiness.lead,
      list(readiness.checks),
      section(readiness.formTitle, `The form at ${link(readiness.title, routesPaths.aiReadinessCheck)} asks for one thing: your website's address.`, readiness.note),
      section(readiness.invitation.title, readiness.invitation.body, `${link(readiness.invitation.button, routesPaths.freeAudit)}.`),
    ].join('\n\n'),
  };

  const contact: MarkdownTwin = {
    path: routesPaths.contact,
    title: pages.contact.title,
    description: pages.contact.seo.description,
    body: [
      pages.contact.lead,
      section(
        pages.contact.infoTitle,
        list([`E-mail: ${site.email}`, `Phone: ${site.phone}`, `Location: ${site.location.headquarters}`, `Hours: ${site.businessHours}`]),
        pages.contact.responsePromise,
      ),
      section(pages.contact.formTitle, `${pages.contact.formLead} The form on ${link(pages.contact.title, routesPaths.contact)} asks for:`, list(contactFields.map((field) => field.label))),
      section(pages.contact.about.title, pages.contact.about.body),
    ].join('\n\n'),
  };

  const articleTwins = articles.map(({ summary }): MarkdownTwin => {
    const related = summary.related.flatMap((slug) => articles.find((article) => article.summary.slug === slug)?.summary ?? []);
    return {
      path: summary.path,
      title: summary.title,
      description: summary.excerpt,
      ...dated(summary.updated, summary.published),
      body: [
        `${summary.category}, ${summary.readMinutes} min read.`,
        `*${summary.standfirst}*`,
        ...(summary.illustrative ? [illustrative('illustrative', 'caseStudy')] : []),
        articleMarkdown(sources.articles[summary.slug] ?? '', `content/articles/${summary.slug}.md`),
        section('Related reading', list(related.map((article) => link(article.title, article.path)))),
        summary.cta === 'audit' ? auditCta : `Book a free AI visibility audit: ${site.bookingUrl}`,
      ].join('\n\n'),
    };
  });

  const legalTwins = legal.map(
    (page): MarkdownTwin => ({
      path: `/${page.slug}`,
      title: page.title,
      description: page.description,
      ...dated(page.updated),
      body: (sources.legal[page.slug] ?? '').trim(),
    }),
  );

  return [homeTwin, howItWorks, caseStudiesTwin, blog, ...articleTwins, freeAudit, aiReadinessCheck, contact, ...legalTwins];
}
