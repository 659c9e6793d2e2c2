// npm run check:site -- URL [--json]
// Checks one website as an AI crawler sees it, with the same fetcher, rules and analysers as the
// check the audit form starts, and prints the report (a progress line on the terminal while it
// runs). --json prints one JSON object for scripts. Exits 0 whenever it could answer, whatever
// the score: a refused or unreachable site is an answer too, named in one line.
import { exitOnConfigError, loadConfig } from '../../server/config';
import { loadAiSources } from '../../server/ledger/ai-sources';
import { reportHeadline, reportJson, reportText } from '../../server/site-check/report';
import { createSiteChecker } from '../../server/site-check/site-checker';
import { site } from '../../shared/site';
import { fail } from './cli';

const args = process.argv.slice(2);
const json = args.includes('--json');
const targets = args.filter((arg) => arg !== '--json');
const unknown = targets.find((arg) => arg.startsWith('--'));
if (unknown) fail(`Unknown argument ${unknown}. Usage: npm run check:site -- URL [--json]`);
const [url] = targets;
if (targets.length !== 1 || !url) fail('Usage: npm run check:site -- URL [--json]');

const config = exitOnConfigError(() => loadConfig());
const sources = exitOnConfigError(() => loadAiSources(config.aiSourcesFile));
if (config.siteCheckAllow.length > 0) {
  console.error(`Warning: SITE_CHECK_ALLOW=${config.siteCheckAllow.join(',')} lets the check reach these addresses on any port (for staging and tests only)`);
}
const checker = createSiteChecker({ brand: site.brand, siteUrl: config.siteUrl, allow: config.siteCheckAllow, agents: sources.agents.map((agent) => agent.match), clock: () => new Date(), priority: config.backgroundPriority });

// On a terminal one line is rewritten in place; elsewhere (a log, a pipe) each step is a line,
// and with --json nothing is said unless a person is watching.
const terminal = process.stderr.isTTY === true;
const progress = (step: string) => {
  if (terminal) process.stderr.write(`\r\x1b[K${url}: ${step}...`);
  else if (!json) process.stderr.write(`${url}: ${step}...\n`);
};

checker
  .check(url, { onProgress: progress })
  .then(
    (report) => {
      if (terminal) process.stderr.write('\r\x1b[K');
      if (json) process.stdout.write(`${JSON.stringify(reportJson(report))}\n`);
      else process.stdout.write(`${report.status === 'done' ? reportText(report) : reportHeadline(report)}\n`);
    },
    (error: unknown) => {
      if (terminal) process.stderr.write('\r\x1b[K');
      console.error(`The check could not run: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
