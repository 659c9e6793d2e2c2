// npm run erase -- --email ADDRESS
// Deletes everything stored about one person (UK GDPR right to erasure) and prints what it removed.
import { migrate, openDatabase } from '../../server/db/database';
import { erasePerson } from '../../server/ops/erase-person';
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
  console.log(`  contact messages: ${report.contactMessages}`);
  console.log(`  held submissions: ${report.heldSubmissions}`);
  console.log(`  outbox mails:     ${report.mails} (${report.unsentMails} not yet sent)`);
  console.log(`  .eml files:       ${report.emlFiles.length}`);
  for (const file of report.emlFiles) console.log(`    ${file}`);
} finally {
  db.close();
}
