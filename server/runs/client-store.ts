import { probePrompts } from '../../shared/generated/probe-prompts';
import { siteOf } from '../business/names';
import type { Db } from '../db/database';
import { planQuestions, type PlannedQuestion } from '../visibility-probe/prompts';
import { runCalls, type RunShape } from './run-budget';
import { RunStore, type RunRow } from './run-store';

const DAY_MS = 86_400_000;

/** A monitored client as stored: the words its questions were made of, and the questions fixed from them. */
export interface ClientRow {
  id: number;
  label: string;
  site: string;
  keywords: string;
  customer: string;
  products: string;
  description: string;
  brand: string | null;
  email: string | null;
  status: 'active' | 'paused';
  series: number;
  /** PlannedQuestion[] JSON. */
  questions: string;
  from_audit_id: number | null;
  created_at: string;
  next_run_at: string;
  /** TrendDocument JSON; null until a run has ended. */
  trend: string | null;
}

/** What a client is added with: its words as given, and the questions fixed from them. */
export type NewClient = Pick<ClientRow, 'label' | 'site' | 'keywords' | 'customer' | 'products' | 'description' | 'brand' | 'email'> & {
  fromAuditId: number | null;
  questions: PlannedQuestion[];
};

/** A client as `npm run clients -- list` shows it: its latest ended run, and the run it has queued or running. */
export interface ClientListing extends ClientRow {
  last_run_at: string | null;
  last_status: RunRow['status'] | null;
  last_score: number | null;
  runs: number;
  pending_id: number | null;
  pending_status: RunRow['status'] | null;
  pending_not_before: string | null;
}

export const questionsOf = (client: Pick<ClientRow, 'questions'>) => JSON.parse(client.questions) as PlannedQuestion[];

/**
 * The monitored clients (clients): what their runs are for. Their runs, answers and links are the
 * run machine's (RunStore); the schedule queues a run of each active client when it falls due.
 */
export class ClientStore {
  private readonly statements;
  private readonly runs: RunStore;

  constructor(private readonly db: Db) {
    this.runs = new RunStore(db);
    this.statements = {
      insert: db.prepare(
        `INSERT INTO clients (label, site, keywords, customer, products, description, brand, email, questions, from_audit_id, created_at, next_run_at)
         VALUES (@label, @site, @keywords, @customer, @products, @description, @brand, @email, @questions, @fromAuditId, @now, @now)`,
      ),
      byId: db.prepare<[number], ClientRow>(`SELECT * FROM clients WHERE id = ?`),
      list: db.prepare<[], ClientListing>(
        `SELECT clients.*, last.finished_at AS last_run_at, last.status AS last_status, last.visibility_score AS last_score,
                (SELECT count(*) FROM runs WHERE client_id = clients.id) AS runs,
                pending.id AS pending_id, pending.status AS pending_status, pending.not_before AS pending_not_before
         FROM clients
         LEFT JOIN runs AS last ON last.id = (SELECT id FROM runs WHERE client_id = clients.id AND status IN ('done', 'stopped', 'failed') ORDER BY id DESC LIMIT 1)
         LEFT JOIN runs AS pending ON pending.id = (SELECT id FROM runs WHERE client_id = clients.id AND status IN ('queued', 'running') ORDER BY id LIMIT 1)
         ORDER BY clients.id`,
      ),
      setStatus: db.prepare(`UPDATE clients SET status = ? WHERE id = ?`),
      setBrand: db.prepare(`UPDATE clients SET brand = ? WHERE id = ?`),
      remove: db.prepare(`DELETE FROM clients WHERE id = ?`),
      removeMails: db.prepare(`DELETE FROM mail_outbox WHERE kind IN ('monitor-run', 'monitor-note') AND source_id = ?`),
      newSeries: db.prepare(`UPDATE clients SET keywords = @keywords, products = @products, questions = @questions, series = series + 1 WHERE id = @id`),
      // A run still queued asks the new questions: it is the new series' first.
      queuedToSeries: db.prepare(
        `UPDATE runs SET series = (SELECT series FROM clients WHERE id = @id), questions = @questions, prompts = @prompts, calls_planned = @calls_planned
         WHERE client_id = @id AND status = 'queued'`,
      ),
      due: db.prepare<[string], ClientRow>(`SELECT * FROM clients WHERE status = 'active' AND next_run_at <= ? ORDER BY next_run_at, id`),
      setNextRun: db.prepare(`UPDATE clients SET next_run_at = ? WHERE id = ?`),
      saveTrend: db.prepare(`UPDATE clients SET trend = ? WHERE id = ?`),
    };
  }

  /** Adds a client, due for its first run at once (the series' first point); returns its id. */
  add(client: NewClient, now: Date): number {
    const { questions, ...rest } = client;
    return Number(this.statements.insert.run({ ...rest, questions: JSON.stringify(questions), now: now.toISOString() }).lastInsertRowid);
  }

  get(id: number): ClientRow | null {
    return this.statements.byId.get(id) ?? null;
  }

  list(): ClientListing[] {
    return this.statements.list.all();
  }

  setStatus(id: number, status: ClientRow['status']): void {
    this.statements.setStatus.run(status, id);
  }

  /** The business's name the client's answers are searched for from now on (null: read from its site at each run). */
  setBrand(id: number, brand: string | null): void {
    this.statements.setBrand.run(brand, id);
  }

  /** Everything about the client: its runs, their answers and its links go with it (ON DELETE CASCADE), and its mails. */
  remove(id: number): boolean {
    return this.db
      .transaction(() => {
        this.statements.removeMails.run(id);
        return this.statements.remove.run(id).changes === 1;
      })
      .immediate();
  }

  /** New words, new fixed questions: a new series begins, which the trend does not compare with the runs before. */
  startSeries(id: number, words: { keywords: string; products: string }, questions: PlannedQuestion[], shape: RunShape): number {
    return this.db
      .transaction(() => {
        this.statements.newSeries.run({ id, ...words, questions: JSON.stringify(questions) });
        this.statements.queuedToSeries.run({ id, questions: JSON.stringify(questions), prompts: questions.length, calls_planned: runCalls(questions.length, shape) });
        return this.get(id)?.series ?? 0;
      })
      .immediate();
  }

  /** Queues a run of the client's current questions, and sets its next scheduled run `intervalDays` from now; returns the run's id. */
  enqueue(client: ClientRow, trigger: 'schedule' | 'command', shape: RunShape, intervalDays: number, now: Date): number {
    const questions = questionsOf(client);
    const id = this.runs.enqueue({ for: { client: client.id }, trigger, prompts: questions.length, shape, series: client.series, questions }, now);
    this.statements.setNextRun.run(new Date(now.getTime() + intervalDays * DAY_MS).toISOString(), client.id);
    return id;
  }

  /**
   * The schedule: each active client due by `now` gets one run queued, and its next run is set an
   * interval from now (not from when it was due): a run missed while the server was down is run
   * once, soon after start, and the schedule goes on from there. A client with a run still pending
   * is not queued twice. Returns the runs queued.
   */
  queueDue(now: Date, shape: RunShape, intervalDays: number): number[] {
    // Read first: the write lock is taken only when a client is due (the worker asks every few seconds).
    if (this.statements.due.all(now.toISOString()).length === 0) return [];
    return this.db
      .transaction(() =>
        this.statements.due.all(now.toISOString()).flatMap((client) => {
          if (this.runs.pending({ client: client.id })) {
            this.statements.setNextRun.run(new Date(now.getTime() + intervalDays * DAY_MS).toISOString(), client.id);
            return [];
          }
          return [this.enqueue(client, 'schedule', shape, intervalDays, now)];
        }),
      )
      .immediate();
  }

  storeTrend(clientId: number, trend: string): void {
    this.statements.saveTrend.run(trend, clientId);
  }
}

/**
 * A client's fixed questions: the audit's templates filled with the client's words, as a lead's
 * probe makes them (the same templates and form words), `count` of them at most. The business's
 * own name and site are left out of every question; so are a contact's name and address.
 */
export function planClientQuestions(
  words: Pick<ClientRow, 'keywords' | 'customer' | 'products' | 'description' | 'brand' | 'site'>,
  count: number,
  personal: readonly string[],
): PlannedQuestion[] {
  return planQuestions(
    { targetKeywords: words.keywords, idealCustomer: words.customer, currentProducts: words.products, businessDescription: words.description },
    { count, templates: probePrompts.templates, brand: words.brand, domain: siteOf(words.site), personal },
  );
}
