import { auditFields } from '../../shared/forms/audit-form';
import { site } from '../../shared/site';
import type { Config } from '../config';
import { SiteCheckStore, storedReport } from '../site-check/check-store';
import type { FinishedProbe } from '../visibility-probe/probe-worker';
import type { LeadStore, ProbeDelivery } from './lead-store';
import { composeFollowUpMail, composeNotification } from './notification-mail';

/**
 * How a finished visibility probe reaches the agency (LeadStore.deliverProbe): in the lead's
 * notification while it still waits, with the site check's findings while that mail has not gone,
 * else in a mail of its own that names the lead. Runs inside the transaction that records the probe.
 */
export function probeDelivery(store: LeadStore, checks: SiteCheckStore, config: Pick<Config, 'mailFrom' | 'mailTo' | 'siteUrl'>, clock: () => Date) {
  const addresses = { from: config.mailFrom, to: config.mailTo, siteUrl: config.siteUrl };
  return ({ auditId, report }: FinishedProbe): ProbeDelivery => {
    const check = checks.forAudit(auditId);
    const checkReport = check ? storedReport(check) : null;
    return store.deliverProbe(auditId, clock(), {
      notification: (lead, messageId) =>
        composeNotification({
          kind: 'audit',
          id: lead.id,
          fields: auditFields,
          values: lead.values,
          receivedAt: lead.receivedAt,
          brand: site.brand,
          ...(check ? { siteCheck: checkReport ?? 'pending' } : {}),
          probe: report,
          messageId,
          ...addresses,
        }),
      withFindings: (lead, messageId) =>
        composeFollowUpMail({ auditId: lead.id, values: lead.values, receivedAt: lead.receivedAt, ...(checkReport ? { siteCheck: checkReport } : {}), probe: report, messageId, ...addresses }),
      followUp: (lead) => composeFollowUpMail({ auditId: lead.id, values: lead.values, receivedAt: lead.receivedAt, probe: report, ...addresses }),
    });
  };
}
