// npm run erase -- --email ADDRESS
// Deletes everything stored about one person (UK GDPR right to erasure) and prints what it removed,
// then which backups still hold them and when those are deleted.
import { migrate, openDatabase } from '../../server/db/database';
import { backupsHoldingPerson, erasePerson } from '../../server/ops/erase-person';
import { configuredDatabase, fail, parseOptions } from './cli';

const options = parseOptions(process.argv.slice(2), ['email']);
const email = options.email;
if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email.trim())) fail('Usage: npm run erase -- --email ADDRESS');

const { config, db } = configuredDatabase(openDatabase);
try {
  migrate(db);
  const report = erasePerson(db, email, config.mailDir);
  console.log(`Erased everything stored for ${email.trim()}:`);
  console.log(`  audit requests:   ${report.auditSubmissions}`);
  console.log(`  site checks:      ${report.siteChecks}`);
  console.log(`  visibility probes: ${report.visibilityProbes}`);
  console.log(`  audit runs:       ${report.auditRuns} (with their answers and report links)`);
  console.log(`  clients:          ${report.clients} (monitored: with their runs, answers and page links)`);
  console.log(`  contact messages: ${report.contactMessages}`);
  console.log(`  held submissions: ${report.heldSubmissions}`);
  console.log(`  outbox mails:     ${report.mails} (${report.unsentMails} not yet sent)`);
  console.log(`  .eml files:       ${report.emlFiles.length}`);
  for (const file of report.emlFiles) console.log(`    ${file}`);
} finally {
  db.close();
}

const utc = (time: Date) => `${time.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const { checked, holding } = backupsHoldingPerson(config, email);
if (holding.length === 0) {
  console.log(`  backups:          none of the ${checked} in ${config.backupDir} holds them`);
} else {
  console.log(`  backups:          ${holding.length} of the ${checked} in ${config.backupDir} still hold them; kept out of use (only ever restored to recover the site), each until it is deleted:`);
  for (const backup of holding) {
    const what = backup.rows === null ? `could not be read (${backup.unreadable ?? ''}), so may hold them` : `${backup.rows} row${backup.rows === 1 ? '' : 's'} about them`;
    const until = backup.agesOutAt ? `deleted by the backup schedule at about ${utc(backup.agesOutAt)}` : 'kept until deleted by hand (BACKUP_INTERVAL_HOURS=0)';
    console.log(`    ${backup.file}  taken ${utc(backup.takenAt)}, ${what}, ${until}`);
  }
}
