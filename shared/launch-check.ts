import type { CaseStudiesContent, HomeContent, SiteContent, StatSource } from './content-schema';

/**
 * What must change before the site goes live: contact details that reach nobody (documentation
 * domains, drama phone numbers), the company's placeholder registration, invented testimonials and
 * case studies, and home statistics without a published source. One list, read by
 * `npm run launch-check` (from content/) and by the server at start (from the built content), so
 * both always agree.
 *
 * Only the site constants are searched for contact details: copy, articles and legal text reach
 * an address or number through their {{placeholders}}, and the documentation domains in code
 * samples (robots.txt and llms.txt examples) are meant as examples.
 */

/** The content the check reads: the site constants and the two files that hold claims. */
export interface LaunchContent {
  site: SiteContent;
  home: Pick<HomeContent, 'hero' | 'aiShift' | 'testimonial'>;
  caseStudies: Pick<CaseStudiesContent, 'studies'>;
}

/** A site constant the server takes from the environment instead, when it is set there. */
export interface ConstantOverride {
  variable: string;
  value: string;
}

export interface LaunchFinding {
  /** Where to change it: a content file (content/site.yaml) or an environment variable. */
  file: string;
  field: string;
  problem: string;
}

const SITE = 'content/site.yaml';
const HOME = 'content/home.yaml';
const CASE_STUDIES = 'content/case-studies.yaml';

/**
 * Domains reserved for documentation (RFC 2606, RFC 6761): example.com, .net and .org with their
 * subdomains, and the .example, .test, .invalid and .localhost top-level domains.
 */
export function reservedDomain(host: string): string | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  const second = /(?:^|\.)(example\.(?:com|net|org))$/.exec(name);
  if (second?.[1]) return `${second[1]} is reserved for documentation`;
  const top = /\.(example|test|invalid|localhost)$/.exec(name);
  if (top?.[1]) return `.${top[1]} is a reserved top-level domain`;
  return undefined;
}

/** The host of an e-mail address or an http(s) URL, or undefined for anything else. */
function hostOf(value: string): string | undefined {
  const email = /^[^\s@]+@([^\s@]+)$/.exec(value.trim());
  if (email?.[1]) return email[1];
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Ofcom's numbers for TV and radio drama: never allocated, so nobody answers. Each is a prefix of
 * the national number (0 and 10 digits) and covers the next 1,000 numbers.
 */
const DRAMA_RANGES: readonly { prefix: string; name: string }[] = [
  ...['113', '114', '115', '116', '117', '118', '121', '131', '141', '151', '161'].map((area) => ({ prefix: `0${area}4960`, name: `0${area} 496 0xxx` })),
  { prefix: '02079460', name: '020 7946 0xxx' },
  { prefix: '01914980', name: '0191 498 0xxx' },
  { prefix: '02896496', name: '028 9649 6xxx' },
  { prefix: '02920180', name: '029 2018 0xxx' },
  { prefix: '01632960', name: '01632 960xxx' },
  { prefix: '07700900', name: '07700 900xxx' },
  { prefix: '08081570', name: '08081 570xxx' },
  { prefix: '09098790', name: '0909 879 0xxx' },
  { prefix: '03069990', name: '03069 990xxx' },
];

/** The drama range a UK phone number (national or +44, any spacing) falls in, if any. */
export function dramaRange(phone: string): string | undefined {
  const digits = phone.replace(/[^\d+]/g, '').replace(/^\+44/, '0').replace(/^0044/, '0');
  if (!/^0\d{10}$/.test(digits)) return undefined;
  return DRAMA_RANGES.find((range) => digits.startsWith(range.prefix))?.name;
}

const quoted = (text: string, max = 60) => JSON.stringify(text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

/** Everything still a placeholder or illustrative, in file order. Empty: ready to launch. */
export function launchCheck(content: LaunchContent, overrides: Partial<Record<'bookingUrl' | 'mailFrom' | 'mailTo', ConstantOverride>> = {}): LaunchFinding[] {
  const findings: LaunchFinding[] = [];
  const { site, home, caseStudies } = content;

  // Contact details: an address, link or number that reaches nobody.
  const contacts: [keyof typeof overrides | 'email' | 'websiteUrl', string][] = [
    ['email', site.email],
    ['bookingUrl', site.bookingUrl],
    ['websiteUrl', site.websiteUrl],
    ['mailFrom', site.mailFrom],
    ['mailTo', site.mailTo],
  ];
  for (const [field, value] of contacts) {
    const override = field in overrides ? overrides[field as keyof typeof overrides] : undefined;
    const host = hostOf(override?.value ?? value);
    const reason = host ? reservedDomain(host) : undefined;
    if (reason) findings.push({ file: override ? 'environment' : SITE, field: override?.variable ?? field, problem: `${override?.value ?? value} (${reason})` });
  }
  for (const field of ['phone', 'phoneE164'] as const) {
    const range = dramaRange(site[field]);
    if (range) findings.push({ file: SITE, field, problem: `${site[field]} (Ofcom's range ${range} is reserved for TV and radio drama)` });
  }

  // The registration the law requires the site to show.
  if (/^0+$/.test(site.companyNumber)) findings.push({ file: SITE, field: 'companyNumber', problem: `${site.companyNumber} (a placeholder: no company has this number)` });
  for (const [part, value] of Object.entries(site.registeredOffice)) {
    if (/\bexample\b/i.test(value)) findings.push({ file: SITE, field: `registeredOffice.${part}`, problem: `${value} (a placeholder address)` });
  }

  // Claims: invented testimonials and case studies, and figures nobody can check.
  const statSource = (source: StatSource | undefined, field: string, what: string) => {
    if (!source) {
      findings.push({ file: HOME, field, problem: `missing for ${quoted(what)}` });
      return;
    }
    const host = hostOf(source.url);
    const reason = host ? reservedDomain(host) : undefined;
    if (reason) findings.push({ file: HOME, field: `${field}.url`, problem: `${source.url} (${reason})` });
  };
  home.hero.stats.forEach((item, index) => statSource(item.source, `hero.stats[${index}].source`, `${item.stat} ${item.label}`));
  home.aiShift.stats.forEach((item, index) => statSource(item.source, `aiShift.stats[${index}].source`, `${item.stat} ${item.description}`));
  if (home.testimonial.kind === 'illustrative') {
    findings.push({ file: HOME, field: 'testimonial.kind', problem: `illustrative: an invented quote from ${quoted(`${home.testimonial.author}, ${home.testimonial.company}`)}` });
  }
  caseStudies.studies.forEach((study, index) => {
    if (study.kind === 'illustrative') {
      findings.push({ file: CASE_STUDIES, field: `studies[${index}].kind`, problem: `illustrative: ${quoted(study.client)} is invented (its article content/articles/${study.article}.md tells the same story)` });
    }
    if (study.testimonial.kind === 'illustrative') {
      findings.push({ file: CASE_STUDIES, field: `studies[${index}].testimonial.kind`, problem: `illustrative: an invented quote from ${quoted(`${study.testimonial.author}, ${study.testimonial.company}`)}` });
    }
  });
  return findings;
}

/** One finding a line: file, field and what is wrong, two spaces apart. */
export function formatFinding(finding: LaunchFinding): string {
  return `${finding.file}  ${finding.field}  ${finding.problem}`;
}
