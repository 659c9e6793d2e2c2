import { escapeHtml } from '../../shared/escape-html';
import type { SiteCheckView } from '../../shared/site-check';
import { nameFromSiteCheck, nameOrigin } from '../business/business-name';
import type { TypedWords } from '../business/search-words';
import type { SiteCheckReport } from './check-report';

/**
 * One check's report in each form it is read: a line for the CSV and the logs, text for the
 * terminal and the agency's mail, HTML for the mail, JSON for scripts, and the prospect's view.
 */

const VERDICT_LABEL = { pass: 'PASS', warn: 'PART', fail: 'FAIL' } as const;

function when(report: SiteCheckReport): string {
  return `${report.checkedAt.replace('T', ' ').slice(0, 16)} UTC`;
}

/** One line: the score and what to fix, or why there is no score. */
export function reportSummary(report: SiteCheckReport): string {
  if (report.status !== 'done') return `${report.status}: ${report.reason ?? ''}`;
  const toFix = report.findings.filter((finding) => finding.verdict !== 'pass').map((finding) => finding.title);
  return `${report.score}/100; ${toFix.length === 0 ? 'every check passes' : `to fix: ${toFix.join(', ')}`}`;
}

/** The first line a person reads: whose site, and the outcome. */
export function reportHeadline(report: SiteCheckReport): string {
  if (report.status === 'done') return `AI-readiness of ${report.url}: ${report.score}/100`;
  return `AI-readiness of ${report.url}: not checked, ${report.reason ?? report.status}`;
}

/** Plain text: the terminal's report and the text part of the agency's mail. */
export function reportText(report: SiteCheckReport): string {
  const lines = [reportHeadline(report)];
  if (report.status !== 'done') {
    lines.push(`(${report.status} ${when(report)})`);
    return lines.join('\n');
  }
  lines.push(`Checked ${when(report)} in ${(report.durationMs / 1000).toFixed(1)} s, as an AI crawler sees the site (no JavaScript run).`, '');
  for (const finding of report.findings) {
    lines.push(`[${VERDICT_LABEL[finding.verdict]}] ${finding.title} (${finding.points}/${finding.maxPoints})`, `       ${finding.detail}`, `       ${finding.advice}`);
  }
  return lines.join('\n');
}

const VERDICT_COLOUR = { pass: '#15803d', warn: '#b45309', fail: '#b91c1c' } as const;

/** The check as an HTML fragment for the agency's mail; every value escaped. */
export function reportHtml(report: SiteCheckReport): string {
  const headline = `<h2 style="font-size:16px;margin:24px 0 8px">${escapeHtml(reportHeadline(report))}</h2>`;
  if (report.status !== 'done') return `${headline}<p style="color:#475569;font-size:13px">${escapeHtml(`${report.status} ${when(report)}`)}</p>`;
  const rows = report.findings
    .map(
      (finding) =>
        `<tr><td valign="top" style="padding:6px 12px 6px 0;font-weight:700;color:${VERDICT_COLOUR[finding.verdict]};white-space:nowrap">${VERDICT_LABEL[finding.verdict]}</td>` +
        `<td style="padding:6px 0"><strong>${escapeHtml(finding.title)}</strong> (${finding.points}/${finding.maxPoints})<br>${escapeHtml(finding.detail)}<br><span style="color:#475569">${escapeHtml(finding.advice)}</span></td></tr>`,
    )
    .join('');
  return `${headline}<p style="color:#475569;font-size:13px">Checked ${escapeHtml(when(report))}, as an AI crawler sees the site (no JavaScript run).</p><table role="presentation" cellspacing="0" cellpadding="0">${rows}</table>`;
}

/** The JSON `npm run check:site -- --json` prints: one object for scripts. */
export function reportJson(report: SiteCheckReport) {
  const facts = report.facts;
  return {
    status: report.status,
    reason: report.reason,
    url: report.url,
    finalUrl: facts?.page.url ?? null,
    checkedAt: report.checkedAt,
    durationMs: report.durationMs,
    score: report.score,
    aiAgents: facts ? Object.fromEntries(facts.robots.agents.map((agent) => [agent.agent, agent.allowed ? 'allowed' : 'blocked'])) : {},
    textWords: facts?.page.textWords ?? null,
    jsonLdTypes: facts?.page.jsonLdTypes ?? [],
    llmsTxt: facts?.llmsTxt.wellFormed ?? false,
    sitemapUrls: facts?.sitemap.urls ?? null,
    findings: report.findings.map(({ id, title, verdict, detail, advice, points, maxPoints }) => ({ id, title, verdict, detail, advice, points, maxPoints })),
  };
}

/** What the prospect's thank-you page and the public check's result show; `typed`, a request's own words about the business, which never make its name. */
export function reportView(report: SiteCheckReport, typed: TypedWords = {}): SiteCheckView {
  if (report.status === 'done') {
    const name = nameFromSiteCheck(report, typed);
    return {
      status: 'done',
      host: report.host,
      url: report.url,
      score: report.score ?? 0,
      findings: report.findings.map(({ title, verdict, detail, advice }) => ({ title, verdict, detail, advice })),
      ...(name ? { business: { name: name.name, from: nameOrigin(name.signs) } } : {}),
    };
  }
  return { status: report.status, host: report.host, url: report.url, reason: report.reason ?? '' };
}
