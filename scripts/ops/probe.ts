// npm run probe -- --site URL --keywords "a, b" [--customer "..."] [--brand NAME] [--prompts N] [--json]
// Asks the configured AI assistants what a buyer of the business would ask, with the same
// questions, clients and analysis as the probe a lead starts, and prints who they name. Each call
// counts in the day's PROBE_DAILY_CALLS with the server's, in the database at DATABASE_PATH.
// Without --brand, the name is read from the site, by the site check's own fetcher and rules.
// --json prints one JSON object for scripts. Exits 0 whenever it could answer (part way too, when
// the day's calls ran out during the run); 1 when the day's calls were used up before it asked
// anything, or the database cannot be opened; 2 on a usage error or when no assistant is
// configured.
import { exitOnConfigError, loadConfig } from '../../server/config';
import { migrate, openDatabase } from '../../server/db/database';
import { loadAiSources } from '../../server/ledger/ai-sources';
import { createSiteChecker } from '../../server/site-check/site-checker';
import { createAssistantClient } from '../../server/visibility-probe/assistants';
import { givenName, nameFromSiteCheck, type BusinessName } from '../../server/business/business-name';
import { hostOf } from '../../server/business/names';
import { reportJson, reportText } from '../../server/visibility-probe/report';
import { ProbeStore } from '../../server/visibility-probe/probe-store';
import { runProbe } from '../../server/visibility-probe/run-probe';
import { site } from '../../shared/site';
import { configuredDatabase, fail, parseOptions } from './cli';

const USAGE = 'Usage: npm run probe -- --site URL --keywords "a, b" [--customer "..."] [--brand NAME] [--prompts N] [--json]';

const options = parseOptions(process.argv.slice(2), ['site', 'keywords', 'customer', 'brand', 'prompts'], ['json']);
const { site: siteUrl, keywords, customer, brand: givenBrand, prompts } = options;
if (typeof siteUrl !== 'string' || typeof keywords !== 'string') fail(USAGE);
if (hostOf(siteUrl) === null) fail(`--site must be a web address, not ${JSON.stringify(siteUrl)}`);
const website: string = siteUrl;
const targetKeywords: string = keywords;
if (prompts !== undefined && (typeof prompts !== 'string' || !/^\d{1,2}$/.test(prompts) || Number(prompts) < 1 || Number(prompts) > 50)) {
  fail(`--prompts must be a whole number from 1 to 50, not ${String(prompts)}`);
}
const json = options.json === true;
// What the prospect searches with: never the business's name, whether read from its site or given.
const typed = { keywords: targetKeywords, customer: typeof customer === 'string' ? customer : '' };
let given: BusinessName | null = null;
if (typeof givenBrand === 'string') {
  const checked = givenName(givenBrand);
  if ('refused' in checked) fail(`--brand: ${checked.refused}.`);
  else given = { name: checked.name, signs: ['given'], title: null };
}

const config = exitOnConfigError(() => loadConfig());
if (config.probe.assistants.length === 0) fail('No AI assistant is configured: set OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or PERPLEXITY_API_KEY');
const keys = config.probe.assistants.map((assistant) => assistant.apiKey.reveal());
// The day's calls are counted where the server counts them: a database that cannot be opened
// (or brought to the server's schema) stops the command with one line, before anything is asked.
const { db } = configuredDatabase((file) => {
  const opened = openDatabase(file);
  migrate(opened);
  return opened;
});
const probes = new ProbeStore(db);

// On a terminal one line is rewritten in place; elsewhere (a log, a pipe) each step is a line,
// and with --json nothing is said unless a person is watching.
const terminal = process.stderr.isTTY === true;
const progress = (step: string) => {
  if (terminal) process.stderr.write(`\r\x1b[K${step}...`);
  else if (!json) process.stderr.write(`${step}...\n`);
};

/** The business's name as the site gives it, read as the site check reads the site. */
async function nameFromSite(url: string): Promise<BusinessName | null> {
  const sources = exitOnConfigError(() => loadAiSources(config.aiSourcesFile));
  const checker = createSiteChecker({ brand: site.brand, siteUrl: config.siteUrl, allow: config.siteCheckAllow, agents: sources.agents.map((agent) => agent.match), clock: () => new Date(), priority: config.backgroundPriority });
  progress(`reading the business's name from ${url}`);
  return nameFromSiteCheck(await checker.check(url), typed);
}

async function main(): Promise<void> {
  const name: BusinessName | null = given ?? (await nameFromSite(website));
  let dayUsedUp = false;
  const report = await runProbe(
    {
      business: { targetKeywords, idealCustomer: typeof customer === 'string' ? customer : '', businessDescription: '', currentProducts: '' },
      name,
      website,
      personal: [],
    },
    {
      assistants: config.probe.assistants.map((setting) => createAssistantClient(setting)),
      promptsPerAssistant: prompts === undefined ? config.probe.promptsPerAssistant : Number(prompts),
      // Each call counted before it is made, in the same UTC day as the server's own.
      allowCall: () => {
        const allowed = probes.takeCall(new Date(), config.probe.dailyCalls);
        dayUsedUp ||= !allowed;
        return allowed;
      },
      clock: () => new Date(),
      onProgress: (done, total) => progress(`asked ${done} of ${total}`),
    },
  );
  if (terminal) process.stderr.write('\r\x1b[K');
  process.stdout.write(`${json ? JSON.stringify(reportJson(report)) : reportText(report)}\n`);
  if (dayUsedUp) {
    const nothingAsked = report.status === 'skipped';
    console.error(
      `Today's calls to the assistants are used up: PROBE_DAILY_CALLS=${config.probe.dailyCalls} a UTC day, counted with the server's. ${nothingAsked ? 'Nothing was asked.' : 'The probe stopped part way; its report is above.'} More can be made after 00:00 UTC.`,
    );
    if (nothingAsked) process.exitCode = 1;
  }
}

main()
  .finally(() => db.close())
  .catch((error: unknown) => {
    // The probe reports its failures itself; whatever else stops it is said in one line, no key in it.
    const message = error instanceof Error ? error.message : String(error);
    console.error(`The probe stopped: ${keys.reduce((text, key) => text.split(key).join('[key removed]'), message)}`);
    process.exit(1);
  });
