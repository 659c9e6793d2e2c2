import { townOf } from '../business/business-facts';
import { nameFromSiteCheck } from '../business/business-name';
import type { Db } from '../db/database';
import { LeadStore } from '../leads/lead-store';
import type { MailSettings } from '../mail/mail-message';
import { composeReportMail, composeRunMail } from '../reports/audit/audit-mail';
import { auditReportUrl } from '../reports/private-addresses';
import type { SiteCheckReport } from '../site-check/check-report';
import type { PlannedQuestion } from '../visibility-probe/prompts';
import type { ProbeInput } from '../visibility-probe/run-probe';
import type { RunOutcome } from './ask-run';
import type { RunKind } from './run-worker';
import { RunStore, type RunRow } from './run-store';

/** An audit request as its runs (and `npm run audit`) read it: its words about the business, and the person's, which no question holds. */
export interface AuditRequestRow {
  id: number;
  name: string;
  email: string;
  website_url: string;
  business_description: string;
  ideal_customer: string;
  target_keywords: string;
  current_products: string;
  /** The name the agency gave the business (npm run audit -- --brand); null: read from the site. */
  brand: string | null;
}

/**
 * The audit runs' part of the run machine: what an audit request's run asks about (the request's
 * words, the business's name as its site gives it or as the agency corrected it) and what it
 * delivers (the agency's mail, and with AUDIT_AUTO_SEND=1 the prospect's), and the prospect's
 * mail when the agency sends it. The mails are queued beside the request, like every mail about a
 * lead (erased with it).
 */
export class AuditRuns implements RunKind {
  readonly label = 'Audit run';
  readonly gone = 'the request was erased';
  private readonly runs: RunStore;
  private readonly leads: LeadStore;
  private readonly request;

  constructor(
    private readonly db: Db,
    private readonly settings: MailSettings & { autoSend: boolean },
  ) {
    this.runs = new RunStore(db);
    this.leads = new LeadStore(db);
    this.request = db.prepare<[number], AuditRequestRow>(`SELECT * FROM audit_submissions WHERE id = ?`);
  }

  owns(run: RunRow): boolean {
    return run.audit_id !== null;
  }

  work(run: RunRow) {
    const lead = run.audit_id === null ? undefined : this.request.get(run.audit_id);
    if (!lead) return null;
    const website = lead.website_url || null;
    return {
      website,
      input: (check: SiteCheckReport | null): ProbeInput => ({
        business: {
          targetKeywords: lead.target_keywords,
          idealCustomer: lead.ideal_customer,
          businessDescription: lead.business_description,
          currentProducts: lead.current_products,
        },
        // The agency's correction, when it made one (npm run audit -- --brand); else read from the site.
        name: lead.brand
          ? { name: lead.brand, signs: ['given'], title: null }
          : check
            ? nameFromSiteCheck(check, { keywords: lead.target_keywords, products: lead.current_products, customer: lead.ideal_customer, description: lead.business_description })
            : null,
        website,
        town: townOf(check),
        // Never sent: the person's own details, wherever they typed them.
        personal: [lead.name, lead.email].filter(Boolean),
      }),
      // A run resumed asks the questions it made at its first start.
      questions: run.questions ? (JSON.parse(run.questions) as PlannedQuestion[]) : null,
    };
  }

  /**
   * Tells the agency that a run ended, with a link minted for it; with AUDIT_AUTO_SEND=1 a complete
   * run's report goes to the prospect too. False when the request was erased meanwhile.
   */
  deliver(run: RunRow, { result, figures }: RunOutcome, now: Date, goesOnAt: Date | null): boolean {
    const auditId = run.audit_id;
    if (auditId === null) return false;
    const link = result.document === null ? null : auditReportUrl(this.settings.siteUrl, this.runs.mintLink({ run: run.id }, 'agency', now));
    // Only a run that asked every question is sent on its own: half a report is the agency's to judge.
    const sent = this.settings.autoSend && result.status === 'done' && this.queueReportMail(run, figures?.business ?? figures?.site ?? null, now) !== null;
    return this.leads.queueAuditMail('audit-run', auditId, now, (lead) => composeRunMail(lead, { run, result, figures, goesOnAt }, link, sent, this.settings)) !== null;
  }

  /**
   * Mails a finished run's report to the prospect (the address on their request): a link minted
   * for them, the mail queued and the run marked sent, in one write transaction. Null when it was
   * sent before (whoever asks, however often), or the request was erased: nothing is queued twice.
   */
  sendToProspect(run: Pick<RunRow, 'id' | 'audit_id'>, business: string | null, now: Date): { mailId: number } | null {
    return this.db.transaction(() => this.queueReportMail(run, business, now)).immediate();
  }

  private queueReportMail(run: Pick<RunRow, 'id' | 'audit_id'>, business: string | null, now: Date): { mailId: number } | null {
    if (run.audit_id === null || !this.runs.markSent(run.id, now)) return null;
    const link = auditReportUrl(this.settings.siteUrl, this.runs.mintLink({ run: run.id }, 'prospect', now));
    const mailId = this.leads.queueAuditMail('audit-report', run.audit_id, now, (lead) =>
      composeReportMail(lead, business ?? (lead.values.website_url || 'your business'), link, run.id, this.settings),
    );
    if (mailId === null) throw new Error('the request was erased');
    return { mailId };
  }
}
