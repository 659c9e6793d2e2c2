import type { Db } from '../../server/db/database';
import { reportDays } from '../../server/ledger/ai-report';

/** A small deterministic generator, so that the sample is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const CRAWLERS = [
  { family: 'OpenAI', agent: 'GPTBot', kind: 'training', rate: 14 },
  { family: 'OpenAI', agent: 'OAI-SearchBot', kind: 'search', rate: 9 },
  { family: 'OpenAI', agent: 'ChatGPT-User', kind: 'user', rate: 5 },
  { family: 'Anthropic', agent: 'ClaudeBot', kind: 'training', rate: 11 },
  { family: 'Anthropic', agent: 'Claude-User', kind: 'user', rate: 2 },
  { family: 'Perplexity', agent: 'PerplexityBot', kind: 'search', rate: 7 },
  { family: 'Perplexity', agent: 'Perplexity-User', kind: 'user', rate: 3 },
  { family: 'Google', agent: 'GoogleOther', kind: 'training', rate: 4 },
  { family: 'Common Crawl', agent: 'CCBot', kind: 'training', rate: 3 },
  { family: 'Meta', agent: 'meta-externalagent', kind: 'training', rate: 3 },
  { family: 'Apple', agent: 'Applebot', kind: 'search', rate: 2 },
  { family: 'Amazon', agent: 'Amazonbot', kind: 'search', rate: 2 },
];
const CRAWLED = ['/', '/llms.txt', '/robots.txt', '/sitemap.xml', '/index.md', '/blog/what-is-llm-seo', '/blog/what-is-llm-seo.md', '/blog/robots-llms-txt-guide.md', '/how-it-works', '/llms-full.txt'];
const ASSISTANTS = [
  { name: 'ChatGPT', rate: 2.2 },
  { name: 'Perplexity', rate: 1.1 },
  { name: 'Gemini', rate: 0.5 },
  { name: 'Claude', rate: 0.4 },
  { name: 'Copilot', rate: 0.2 },
];
const LANDING = ['/', '/blog/what-is-llm-seo', '/blog/best-llm-seo-agencies-uk', '/free-audit', '/how-it-works'];

/**
 * Fills a database with a made-up month of the ledger and leads (for the report's tests and the
 * sample in docs/, scripts/sample-ai-report.ts): crawler fetches growing through the period, a few visits from assistants a
 * day, and a lead most days. Nothing in it is real.
 */
export function seedSampleLedger(db: Db, to: string, dayCount: number): void {
  const next = random(20_260_322);
  const ledger = db.prepare('INSERT INTO ai_ledger (day, path, source, family, agent, kind, count) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const lead = db.prepare(
    `INSERT INTO audit_submissions (name, email, business_description, ideal_customer, target_keywords, current_products, lead_sources, seo_experience, main_goal, created_at)
     VALUES ('Sample lead', ?, 'x', 'x', 'x', 'x', 'x', 'x', 'x', ?)`,
  );
  db.transaction(() => {
    reportDays(to, dayCount).forEach((day, index) => {
      const growth = 0.6 + (index / dayCount) * 0.8;
      for (const crawler of CRAWLERS) {
        for (const path of CRAWLED) {
          const count = Math.round(crawler.rate * growth * next() * (path.endsWith('.txt') || path.endsWith('.md') ? 0.5 : 0.35));
          if (count > 0) ledger.run(day, path, 'crawler', crawler.family, crawler.agent, crawler.kind, count);
        }
      }
      for (const assistant of ASSISTANTS) {
        for (const path of LANDING) {
          const count = Math.round(assistant.rate * growth * next() * 0.6);
          if (count > 0) ledger.run(day, path, 'referral', assistant.name, '', '', count);
        }
      }
      const leads = Math.round(next() * 2.4 * growth);
      for (let number = 0; number < leads; number += 1) lead.run(`sample${index}-${number}@example.com`, `${day}T1${number}:00:00.000Z`);
    });
  })();
}
