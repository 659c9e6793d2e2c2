import { auditFields } from '../../shared/forms/audit-form';
import { site } from '../../shared/site';
import type { Config } from '../config';
import type { FinishedCheck } from '../site-check/check-worker';
import type { LeadStore, SiteCheckDelivery } from './lead-store';
import { composeFollowUpMail, composeNotification } from './notification-mail';

/**
 * How a finished site check reaches the agency: in the lead's notification, composed again with
 * the findings (same Message-ID) while that mail still waits for them, or else in a mail of its
 * own that names the lead. Runs inside the transaction that records the check.
 */
export function siteCheckDelivery(store: LeadStore, config: Pick<Config, 'mailFrom' | 'mailTo' | 'siteUrl' | 'probe'>, clock: () => Date) {
  const addresses = { from: config.mailFrom, to: config.mailTo, siteUrl: config.siteUrl };
  // The probe waits for the check, so a notification composed again now has no probe results yet,
  // unless the probe was recorded as not run when the request came in: that says why.
  const probe = config.probe.assistants.length > 0 ? ('pending' as const) : ('not configured' as const);
  return ({ auditId, report }: FinishedCheck): SiteCheckDelivery =>
    store.deliverSiteCheck(auditId, clock(), {
      notification: (lead, messageId) =>
        composeNotification({
          kind: 'audit',
          id: lead.id,
          fields: auditFields,
          values: lead.values,
          receivedAt: lead.receivedAt,
          brand: site.brand,
          siteCheck: report,
          probe: store.endedProbe(lead.id) ?? probe,
          messageId,
          ...addresses,
        }),
      followUp: (lead) => composeFollowUpMail({ auditId: lead.id, values: lead.values, receivedAt: lead.receivedAt, siteCheck: report, ...addresses }),
    });
}
