import { escapeHtml } from '../../shared/escape-html';
import { excerpt } from '../../shared/excerpt';
import { ASSISTANT_IDS, ASSISTANTS, type AssistantId } from './assistant-catalogue';
import { nameOrigin, signsOfStored } from '../business/business-name';
import type { AssistantReport, ProbeAnswer, ProbeReport } from './probe-report';

/**
 * One probe's report in each form it is read: a line for logs, text for the terminal and the
 * agency's mail, HTML for the mail, JSON for scripts. An answer's words come from outside: the
 * HTML escapes every value, and no link in it is made a link.
 */

const EXCERPT_CHARACTERS = 160;

const percent = (share: number) => `${Math.round(share * 100)}%`;
const label = (id: AssistantId) => ASSISTANTS[id].label;

function when(report: ProbeReport): string {
  return `${report.startedAt.replace('T', ' ').slice(0, 16)} UTC`;
}

/** Whether the report holds answers: a skipped or failed probe has none, only its reason. */
const hasAnswers = (report: ProbeReport) => report.status !== 'skipped' && report.status !== 'failed';

function whose(report: ProbeReport): string {
  if (report.brand && report.domain) return `${report.brand} (${report.domain})`;
  return report.brand ?? report.domain ?? 'the business';
}

/**
 * What the answers were searched for and where the name was read: a name read wrong ("Home",
 * "Leeds Plumbers") would count answers that do not name the business, so the agency sees it at
 * once, and can correct it (`--brand`). Null for a report that says neither (a probe skipped
 * before it looked).
 */
export function lookedFor(report: Pick<ProbeReport, 'brand' | 'domain' | 'pageTitle' | 'typedNames'> & { nameSigns?: ProbeReport['nameSigns']; nameSource?: string | null }): string | null {
  const { brand, domain, pageTitle } = report;
  if (brand === null) {
    if (domain === null) return null;
    const typedName = report.typedNames?.[0];
    if (typedName !== undefined) {
      return `Looked for: ${domain} only, by its web address: the name its site gives, "${typedName}", is made of the request's own keywords, and a search of theirs would count as naming it; if it is the name, correct it with --brand`;
    }
    const title = pageTitle ? ` (its title: "${pageTitle}")` : '';
    return `Looked for: ${domain} only, by its web address: its site gives no name of its own that is not a search${title}`;
  }
  const origin = nameOrigin(signsOfStored(report));
  const from = origin === '' ? '' : ` (${origin})`;
  return `Looked for: "${brand}"${from}${domain ? ` and ${domain}` : ''}`;
}

/** The first line a person reads: whose visibility, and the score or why there is none. */
export function reportHeadline(report: ProbeReport): string {
  if (report.status === 'skipped') return `AI visibility of ${whose(report)}: not probed, ${report.reason ?? ''}`;
  if (report.status === 'failed') return `AI visibility of ${whose(report)}: no result, ${report.reason ?? ''}; ask the assistants by hand`;
  const score = report.score === null ? 'no answer to score' : `${report.score}/100`;
  return `AI visibility of ${whose(report)}: ${score}${report.status === 'stopped' ? ` (stopped part way: ${report.reason ?? ''})` : ''}`;
}

/** One line: the score and who named the business, or why there is none. */
export function reportSummary(report: ProbeReport): string {
  if (!hasAnswers(report)) return `${report.status}: ${report.reason ?? ''}`;
  const parts = report.assistants.map((assistant) =>
    assistant.error ? `${label(assistant.id)} ${assistant.error}` : `${label(assistant.id)} ${assistant.named}/${assistant.answered}`,
  );
  return `${report.score === null ? 'no score' : `${report.score}/100`}; named by ${parts.join(', ')}${report.status === 'stopped' ? `; ${report.reason ?? ''}` : ''}`;
}

/** What an assistant did, in one line. */
function assistantLine(assistant: AssistantReport): string {
  const head = `${label(assistant.id)} (${assistant.model})`;
  if (assistant.error === 'key rejected') return `${head}: key rejected; check ${ASSISTANTS[assistant.id].envPrefix}_API_KEY`;
  if (assistant.answered === 0) return `${head}: no answer (${assistant.asked} asked)`;
  const range = assistant.visibilityRange ? ` (${percent(assistant.visibilityRange[0])} to ${percent(assistant.visibilityRange[1])} over many runs)` : '';
  return [
    `${head}: named in ${assistant.named} of ${assistant.answered} answers${range}`,
    `cited in ${assistant.cited}`,
    assistant.averagePosition === null ? 'never placed in a list' : `average position ${assistant.averagePosition}`,
    `share of voice ${percent(assistant.shareOfVoice ?? 0)}`,
    `${assistant.score}/100`,
  ].join('; ');
}

function verdict(answer: ProbeAnswer): string {
  if (answer.error !== null) return `no answer: ${answer.error}`;
  if (!answer.named) return 'not named';
  return answer.position === null ? 'named in a cited page' : `named #${answer.position}`;
}

function askedLine(report: ProbeReport): string {
  const names = report.assistants.map((assistant) => label(assistant.id));
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
  return `Asked ${when(report)}: ${report.prompts.length} question${report.prompts.length === 1 ? '' : 's'} to ${names.length > 1 ? 'each of ' : ''}${list}, as a buyer would type them, with web search on.`;
}

/** The request's words that were not asked, since each names the business: never left out silently. */
function leftOutLine(report: ProbeReport): string | null {
  const leftOut = report.leftOut ?? [];
  if (leftOut.length === 0) return null;
  return `Not asked, since each names the business itself: ${leftOut.map((part) => `"${part}"`).join(', ')}`;
}

const SAMPLE_NOTE = 'Answers change from one run to the next: a few answers per assistant give a rough rate, the range beside it.';

/** Plain text: the terminal's report and the text part of the agency's mail. */
export function reportText(report: ProbeReport): string {
  const lines = [reportHeadline(report)];
  const sought = lookedFor(report);
  if (!hasAnswers(report)) {
    // A failed probe is asked again by hand, and a skipped one may be after a correction: for what, too.
    if (sought) lines.push(sought);
    return lines.join('\n');
  }
  lines.push(askedLine(report));
  if (sought) lines.push(sought);
  const notAsked = leftOutLine(report);
  if (notAsked) lines.push(notAsked);
  lines.push('');
  for (const assistant of report.assistants) {
    lines.push(assistantLine(assistant));
    assistant.answers.forEach((answer, index) => {
      lines.push(`  ${index + 1}. [${verdict(answer)}] ${answer.prompt}`);
      if (answer.text) lines.push(`     "${excerpt(answer.text, EXCERPT_CHARACTERS)}"`);
    });
    lines.push('');
  }
  if (report.competitors.length > 0) lines.push(`Named instead: ${report.competitors.map(({ name, count }) => `${name} (${count})`).join(', ')}`);
  if (report.domains.length > 0) lines.push(`Other sites written or cited: ${report.domains.map(({ domain, count }) => `${domain} (${count})`).join(', ')}`);
  lines.push(SAMPLE_NOTE);
  return lines.join('\n');
}

const VERDICT_COLOUR = { named: '#15803d', missing: '#b91c1c', failed: '#475569' } as const;

function answerRow(answer: ProbeAnswer): string {
  const colour = answer.error !== null ? VERDICT_COLOUR.failed : answer.named ? VERDICT_COLOUR.named : VERDICT_COLOUR.missing;
  const text = answer.text ? `<br><span style="color:#475569">${escapeHtml(excerpt(answer.text, EXCERPT_CHARACTERS))}</span>` : '';
  // Sources as text, never as links: an answer is someone else's words, and its addresses too.
  const sources = answer.sources.length > 0 ? `<br><span style="color:#475569;font-size:12px">Cites: ${answer.sources.map((source) => escapeHtml(source.url)).join(', ')}</span>` : '';
  return (
    `<tr><td valign="top" style="padding:4px 12px 4px 0;font-weight:700;color:${colour};white-space:nowrap">${escapeHtml(verdict(answer))}</td>` +
    `<td style="padding:4px 0">${escapeHtml(answer.prompt)}${text}${sources}</td></tr>`
  );
}

/** The probe as an HTML fragment for the agency's mail; every value escaped. */
export function reportHtml(report: ProbeReport): string {
  const headline = `<h2 style="font-size:16px;margin:24px 0 8px">${escapeHtml(reportHeadline(report))}</h2>`;
  const sought = lookedFor(report);
  const soughtLine = sought ? `<p style="font-size:13px"><strong>${escapeHtml(sought)}</strong></p>` : '';
  if (!hasAnswers(report)) return `${headline}${soughtLine}`;
  const assistants = report.assistants
    .map(
      (assistant) =>
        `<h3 style="font-size:14px;margin:16px 0 4px">${escapeHtml(assistantLine(assistant))}</h3>` +
        (assistant.answers.length > 0 ? `<table role="presentation" cellspacing="0" cellpadding="0">${assistant.answers.map(answerRow).join('')}</table>` : ''),
    )
    .join('');
  const competitors =
    report.competitors.length > 0 ? `<p>Named instead: ${escapeHtml(report.competitors.map(({ name, count }) => `${name} (${count})`).join(', '))}</p>` : '';
  const notAsked = leftOutLine(report);
  const notAskedLine = notAsked ? `<p style="font-size:13px">${escapeHtml(notAsked)}</p>` : '';
  return `${headline}<p style="color:#475569;font-size:13px">${escapeHtml(askedLine(report))}</p>${soughtLine}${notAskedLine}${assistants}${competitors}<p style="color:#475569;font-size:13px">${escapeHtml(SAMPLE_NOTE)}</p>`;
}

/** The JSON `npm run probe -- --json` prints: one object for scripts, with every assistant, asked or not. */
export function reportJson(report: ProbeReport) {
  const asked = new Map(report.assistants.map((assistant) => [assistant.id, assistant]));
  return {
    status: report.status,
    reason: report.reason,
    brand: report.brand,
    domain: report.domain,
    nameSigns: signsOfStored(report),
    nameFrom: report.brand === null ? null : nameOrigin(signsOfStored(report)) || null,
    pageTitle: report.pageTitle,
    askedAt: report.startedAt,
    score: report.score,
    prompts: report.prompts,
    assistants: Object.fromEntries(
      ASSISTANT_IDS.map((id) => {
        const assistant = asked.get(id);
        if (!assistant) return [id, { model: null, asked: 0, answered: 0, named: 0, score: null, error: 'not configured', answers: [] }];
        const { model, asked: count, answered, named, cited, visibilityRate, visibilityRange, citationRate, averagePosition, shareOfVoice, score, error } = assistant;
        return [
          id,
          {
            model,
            asked: count,
            answered,
            named,
            cited,
            visibilityRate,
            visibilityRange,
            citationRate,
            averagePosition,
            shareOfVoice,
            score,
            error,
            answers: assistant.answers.map((answer) => ({
              prompt: answer.prompt,
              askedAt: answer.askedAt,
              model: answer.model,
              named: answer.named,
              position: answer.position,
              sources: answer.sources.map((source) => source.url),
              ...(answer.error === null ? {} : { error: answer.error }),
            })),
          },
        ];
      }),
    ),
    competitors: report.competitors,
    domains: report.domains,
  };
}
