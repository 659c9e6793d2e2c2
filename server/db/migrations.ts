/**
 * Schema changes, in order. Append a new entry; never edit an applied one (PRAGMA user_version
 * records how far a database has come).
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'settings',
    sql: `CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
          ) STRICT;`,
  },
  {
    version: 2,
    name: 'leads and mail outbox',
    sql: `
      -- The audit form's ten fields exactly as typed (trimmed), all text.
      CREATE TABLE audit_submissions (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        website_url TEXT NOT NULL DEFAULT '',
        business_description TEXT NOT NULL,
        ideal_customer TEXT NOT NULL,
        target_keywords TEXT NOT NULL,
        current_products TEXT NOT NULL,
        lead_sources TEXT NOT NULL,
        seo_experience TEXT NOT NULL,
        main_goal TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX audit_submissions_email ON audit_submissions (email COLLATE NOCASE);
      CREATE INDEX audit_submissions_created_at ON audit_submissions (created_at);

      CREATE TABLE contact_messages (
        id INTEGER PRIMARY KEY,
        first_name TEXT NOT NULL DEFAULT '',
        last_name TEXT NOT NULL DEFAULT '',
        email TEXT NOT NULL,
        company TEXT NOT NULL DEFAULT '',
        website TEXT NOT NULL DEFAULT '',
        industry TEXT NOT NULL DEFAULT '',
        subject TEXT NOT NULL DEFAULT '',
        message TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX contact_messages_email ON contact_messages (email COLLATE NOCASE);
      CREATE INDEX contact_messages_created_at ON contact_messages (created_at);

      -- A mail is written here in the same transaction as its lead, so neither exists without
      -- the other; the worker sends it and records the outcome. Rows are never deleted by the
      -- worker (only by the erase command).
      CREATE TABLE mail_outbox (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('audit', 'contact')),
        source_id INTEGER NOT NULL,
        subject_email TEXT NOT NULL,
        message_id TEXT NOT NULL UNIQUE,
        message TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        sent_at TEXT,
        last_error TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL;
      CREATE INDEX mail_outbox_subject_email ON mail_outbox (subject_email COLLATE NOCASE);
    `,
  },
  {
    version: 3,
    name: 'quarantine',
    sql: `
      -- Submissions held as suspected spam (posted too fast, honeypot filled, fill-time note missing,
      -- forged or expired, too many from one address): kept so that no real request is lost, never
      -- mailed, deleted after QUARANTINE_DAYS. fields: the form's own fields as posted (JSON).
      CREATE TABLE quarantine (
        id INTEGER PRIMARY KEY,
        form TEXT NOT NULL CHECK (form IN ('audit', 'contact')),
        reason TEXT NOT NULL,
        email TEXT NOT NULL DEFAULT '',
        fields TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX quarantine_created_at ON quarantine (created_at);
    `,
  },
  {
    version: 4,
    name: 'ai ledger',
    sql: `
      -- What AI does on the site, per UTC day and path: counts only, no person (no address, no
      -- cookie, no full user agent). source crawler: family, agent token, kind (training, search,
      -- user). source referral: family is the assistant that sent the visit.
      CREATE TABLE ai_ledger (
        day TEXT NOT NULL,
        path TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('crawler', 'referral')),
        family TEXT NOT NULL,
        agent TEXT NOT NULL DEFAULT '',
        kind TEXT NOT NULL DEFAULT '' CHECK (kind IN ('', 'training', 'search', 'user')),
        count INTEGER NOT NULL CHECK (count > 0),
        PRIMARY KEY (day, path, source, family, agent, kind)
      ) STRICT, WITHOUT ROWID;
    `,
  },
  {
    version: 5,
    name: 'site checks',
    sql: `
      -- The instant check of the website an audit request names: queued with the request (in its
      -- transaction), run in the background, its report kept beside the request and erased with
      -- it. token_hash: SHA-256 of the token in the prospect's thank-you link, the only way to
      -- see the result. host: the URL's host (with its port), to reuse a recent result.
      CREATE TABLE site_checks (
        id INTEGER PRIMARY KEY,
        audit_id INTEGER NOT NULL UNIQUE REFERENCES audit_submissions (id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        host TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'refused', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        reason TEXT,
        score INTEGER,
        summary TEXT,
        report TEXT,
        reused_from INTEGER,
        created_at TEXT NOT NULL,
        finished_at TEXT
      ) STRICT;
      CREATE INDEX site_checks_pending ON site_checks (id) WHERE status IN ('queued', 'running');
      CREATE INDEX site_checks_host ON site_checks (host, finished_at);

      -- The outbox gains a kind: the findings of a check that ended after the lead's notification
      -- went out follow in a mail of their own. SQLite cannot change a CHECK in place, so the
      -- table is copied (ids, and so the sending order, kept).
      CREATE TABLE mail_outbox_next (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('audit', 'contact', 'site-check')),
        source_id INTEGER NOT NULL,
        subject_email TEXT NOT NULL,
        message_id TEXT NOT NULL UNIQUE,
        message TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        sent_at TEXT,
        last_error TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      INSERT INTO mail_outbox_next (id, kind, source_id, subject_email, message_id, message, attempts, next_attempt_at, sent_at, last_error, created_at)
        SELECT id, kind, source_id, subject_email, message_id, message, attempts, next_attempt_at, sent_at, last_error, created_at FROM mail_outbox;
      DROP TABLE mail_outbox;
      ALTER TABLE mail_outbox_next RENAME TO mail_outbox;
      CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL;
      CREATE INDEX mail_outbox_subject_email ON mail_outbox (subject_email COLLATE NOCASE);
    `,
  },
  {
    version: 6,
    name: 'site checks apart from requests',
    sql: `
      -- Site checks gain: url_key, the normalised address a recent result is reused by (checks
      -- made before it have none and are not reused); 'skipped', a check not run (too many from
      -- one address in an hour, the queue full), with its reason; and an audit_id that may be
      -- NULL, for a check asked for on its own (the public checker), which no request owns.
      -- SQLite cannot change a CHECK or a NOT NULL in place, so the table is copied, ids kept.
      CREATE TABLE site_checks_next (
        id INTEGER PRIMARY KEY,
        audit_id INTEGER UNIQUE REFERENCES audit_submissions (id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        url_key TEXT NOT NULL DEFAULT '',
        host TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'refused', 'failed', 'skipped')),
        attempts INTEGER NOT NULL DEFAULT 0,
        reason TEXT,
        score INTEGER,
        summary TEXT,
        report TEXT,
        reused_from INTEGER,
        created_at TEXT NOT NULL,
        finished_at TEXT
      ) STRICT;
      INSERT INTO site_checks_next (id, audit_id, url, host, token_hash, status, attempts, reason, score, summary, report, reused_from, created_at, finished_at)
        SELECT id, audit_id, url, host, token_hash, status, attempts, reason, score, summary, report, reused_from, created_at, finished_at FROM site_checks;
      DROP TABLE site_checks;
      ALTER TABLE site_checks_next RENAME TO site_checks;
      CREATE INDEX site_checks_pending ON site_checks (id) WHERE status IN ('queued', 'running');
      CREATE INDEX site_checks_host ON site_checks (host, finished_at);
      CREATE INDEX site_checks_url_key ON site_checks (url_key, finished_at);

      -- A held submission's thank-you link carries a check token that leads to no check; its
      -- hash is kept here so that the page answers it as a check still running.
      ALTER TABLE quarantine ADD COLUMN check_token_hash TEXT;
      CREATE UNIQUE INDEX quarantine_check_token ON quarantine (check_token_hash) WHERE check_token_hash IS NOT NULL;
    `,
  },
  {
    version: 7,
    name: 'held AI-readiness checks',
    sql: `
      -- The public AI-readiness check's form holds what looks automated like the other forms do:
      -- quarantine gains the form 'readiness'. SQLite cannot change a CHECK in place, so the
      -- table is copied, ids kept.
      CREATE TABLE quarantine_next (
        id INTEGER PRIMARY KEY,
        form TEXT NOT NULL CHECK (form IN ('audit', 'contact', 'readiness')),
        reason TEXT NOT NULL,
        email TEXT NOT NULL DEFAULT '',
        fields TEXT NOT NULL,
        created_at TEXT NOT NULL,
        check_token_hash TEXT
      ) STRICT;
      INSERT INTO quarantine_next (id, form, reason, email, fields, created_at, check_token_hash)
        SELECT id, form, reason, email, fields, created_at, check_token_hash FROM quarantine;
      DROP TABLE quarantine;
      ALTER TABLE quarantine_next RENAME TO quarantine;
      CREATE INDEX quarantine_created_at ON quarantine (created_at);
      CREATE UNIQUE INDEX quarantine_check_token ON quarantine (check_token_hash) WHERE check_token_hash IS NOT NULL;
      CREATE INDEX site_checks_asked_alone ON site_checks (created_at) WHERE audit_id IS NULL;
    `,
  },
  {
    version: 8,
    name: 'visibility probes',
    sql: `
      -- The AI visibility probe of an audit request: queued in the request's own transaction (when
      -- an assistant is configured and the request names a website), run after the request's site
      -- check has read the business's name, its report (every question, answer, model, date and
      -- who was named) kept beside the request and erased with it.
      CREATE TABLE visibility_probes (
        id INTEGER PRIMARY KEY,
        audit_id INTEGER NOT NULL UNIQUE REFERENCES audit_submissions (id) ON DELETE CASCADE,
        status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'stopped', 'skipped', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        reason TEXT,
        score INTEGER,
        summary TEXT,
        report TEXT,
        created_at TEXT NOT NULL,
        finished_at TEXT
      ) STRICT;
      CREATE INDEX visibility_probes_pending ON visibility_probes (id) WHERE status IN ('queued', 'running');

      -- Calls made to the assistants per UTC day, against PROBE_DAILY_CALLS.
      CREATE TABLE probe_calls (
        day TEXT PRIMARY KEY,
        calls INTEGER NOT NULL CHECK (calls >= 0)
      ) STRICT;

      -- The outbox gains a kind: a probe's results, in a mail of their own. The table is copied
      -- to widen its CHECK (ids, and so the sending order, kept).
      CREATE TABLE mail_outbox_next (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('audit', 'contact', 'site-check', 'probe')),
        source_id INTEGER NOT NULL,
        subject_email TEXT NOT NULL,
        message_id TEXT NOT NULL UNIQUE,
        message TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        sent_at TEXT,
        last_error TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      INSERT INTO mail_outbox_next (id, kind, source_id, subject_email, message_id, message, attempts, next_attempt_at, sent_at, last_error, created_at)
        SELECT id, kind, source_id, subject_email, message_id, message, attempts, next_attempt_at, sent_at, last_error, created_at FROM mail_outbox;
      DROP TABLE mail_outbox;
      ALTER TABLE mail_outbox_next RENAME TO mail_outbox;
      CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL;
      CREATE INDEX mail_outbox_subject_email ON mail_outbox (subject_email COLLATE NOCASE);
    `,
  },
  {
    version: 9,
    name: 'probe views',
    sql: `
      -- What the prospect's thank-you page shows of a finished probe (JSON: each assistant's
      -- count, who it named instead, one answer's start), written with its report, so that each
      -- poll of the page reads a few hundred bytes instead of a report of up to several MB.
      -- Probes recorded before it have none: theirs is made from the report when it is asked for.
      ALTER TABLE visibility_probes ADD COLUMN view TEXT;
    `,
  },
  {
    version: 10,
    name: 'audit runs',
    sql: `
      -- The free audit's full run of an audit request (npm run audit, or AUDIT_AUTO): a fresh
      -- site check and AUDIT_PROMPTS questions to every assistant, kept beside the request and
      -- erased with it. trigger: who queued it. calls_planned: questions x assistants when queued.
      -- progress: each assistant's questions answered so far (JSON), which the command shows.
      -- check_report: the run's own site check (JSON), kept once it ends so that a run resumed
      -- after a restart asks the same questions. document: the report's page (JSON). sent_at:
      -- when the prospect's mail with its link was queued.
      CREATE TABLE audit_runs (
        id INTEGER PRIMARY KEY,
        audit_id INTEGER NOT NULL REFERENCES audit_submissions (id) ON DELETE CASCADE,
        status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'stopped', 'failed')),
        trigger TEXT NOT NULL CHECK (trigger IN ('command', 'auto')),
        prompts INTEGER NOT NULL,
        calls_planned INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        progress TEXT,
        reason TEXT,
        visibility_score INTEGER,
        readiness_score INTEGER,
        summary TEXT,
        document TEXT,
        check_report TEXT,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT,
        sent_at TEXT
      ) STRICT;
      CREATE INDEX audit_runs_audit_id ON audit_runs (audit_id);
      CREATE INDEX audit_runs_pending ON audit_runs (id) WHERE status IN ('queued', 'running');

      -- Each answer of a run as it arrives (ProbeAnswer JSON), by assistant and question: a run
      -- resumed after a restart asks only the questions not answered here, so none is paid twice.
      CREATE TABLE audit_answers (
        run_id INTEGER NOT NULL REFERENCES audit_runs (id) ON DELETE CASCADE,
        assistant TEXT NOT NULL,
        question INTEGER NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (run_id, assistant, question)
      ) STRICT, WITHOUT ROWID;

      -- The links that open a run's report, one for each time one is given out (the agency's
      -- mail, the command's printed address, the prospect's mail): only the SHA-256 of each
      -- token is kept, so a copy of the database opens no report.
      CREATE TABLE audit_links (
        token_hash TEXT PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES audit_runs (id) ON DELETE CASCADE,
        audience TEXT NOT NULL CHECK (audience IN ('agency', 'prospect')),
        created_at TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX audit_links_run_id ON audit_links (run_id);

      -- The outbox gains two kinds: a run's end, to the agency (audit-run), and the report's
      -- link, to the prospect (audit-report). The table is copied to widen its CHECK (ids, and
      -- so the sending order, kept).
      CREATE TABLE mail_outbox_next (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('audit', 'contact', 'site-check', 'probe', 'audit-run', 'audit-report')),
        source_id INTEGER NOT NULL,
        subject_email TEXT NOT NULL,
        message_id TEXT NOT NULL UNIQUE,
        message TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        sent_at TEXT,
        last_error TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      INSERT INTO mail_outbox_next (id, kind, source_id, subject_email, message_id, message, attempts, next_attempt_at, sent_at, last_error, created_at)
        SELECT id, kind, source_id, subject_email, message_id, message, attempts, next_attempt_at, sent_at, last_error, created_at FROM mail_outbox;
      DROP TABLE mail_outbox;
      ALTER TABLE mail_outbox_next RENAME TO mail_outbox;
      CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL;
      CREATE INDEX mail_outbox_subject_email ON mail_outbox (subject_email COLLATE NOCASE);
    `,
  },
  {
    version: 11,
    name: 'monitored clients',
    sql: `
      -- The agency's clients under monthly monitoring (npm run clients), without accounts: the
      -- words their questions were made of, as given. status: paused clients are never run.
      -- series: 1, and one more each time the questions change (runs of different questions do
      -- not compare). questions: the fixed questions of the current series (JSON, each with the
      -- keyword and product it was made of). next_run_at: when the schedule next queues a run.
      -- trend: the client's page (TrendDocument JSON), composed from its runs when one ends.
      CREATE TABLE clients (
        id INTEGER PRIMARY KEY,
        label TEXT NOT NULL,
        site TEXT NOT NULL,
        keywords TEXT NOT NULL,
        customer TEXT NOT NULL DEFAULT '',
        products TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        brand TEXT,
        email TEXT,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
        series INTEGER NOT NULL DEFAULT 1,
        questions TEXT NOT NULL,
        from_audit_id INTEGER,
        created_at TEXT NOT NULL,
        next_run_at TEXT NOT NULL,
        trend TEXT
      ) STRICT;
      CREATE INDEX clients_due ON clients (next_run_at) WHERE status = 'active';
      CREATE INDEX clients_email ON clients (email COLLATE NOCASE);

      -- A client's runs, each a full audit run of its fixed questions (the audit runs' columns),
      -- with the series it asked and the facts the trend needs (JSON). trigger: the schedule or
      -- npm run clients -- run. not_before: a run the day's PROBE_DAILY_CALLS could not hold
      -- waits for the next UTC day rather than running half.
      CREATE TABLE client_runs (
        id INTEGER PRIMARY KEY,
        client_id INTEGER NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
        status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'stopped', 'failed')),
        trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'command')),
        series INTEGER NOT NULL,
        prompts INTEGER NOT NULL,
        calls_planned INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        progress TEXT,
        reason TEXT,
        visibility_score INTEGER,
        readiness_score INTEGER,
        summary TEXT,
        document TEXT,
        facts TEXT,
        check_report TEXT,
        not_before TEXT,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT
      ) STRICT;
      CREATE INDEX client_runs_client_id ON client_runs (client_id);
      CREATE INDEX client_runs_pending ON client_runs (id) WHERE status IN ('queued', 'running');

      -- Each answer of a client's run as it arrives, for a run resumed after a restart.
      CREATE TABLE client_answers (
        run_id INTEGER NOT NULL REFERENCES client_runs (id) ON DELETE CASCADE,
        assistant TEXT NOT NULL,
        question INTEGER NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (run_id, assistant, question)
      ) STRICT, WITHOUT ROWID;

      -- The links that open a client's page (the trend), only the SHA-256 of each token.
      CREATE TABLE client_links (
        token_hash TEXT PRIMARY KEY,
        client_id INTEGER NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
        audience TEXT NOT NULL CHECK (audience IN ('agency', 'client')),
        created_at TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX client_links_client_id ON client_links (client_id);

      -- The outbox gains two kinds: a client's run, to the agency (monitor-run), and the note with
      -- its page's link, to the client (monitor-note). Copied to widen its CHECK, ids kept.
      CREATE TABLE mail_outbox_next (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('audit', 'contact', 'site-check', 'probe', 'audit-run', 'audit-report', 'monitor-run', 'monitor-note')),
        source_id INTEGER NOT NULL,
        subject_email TEXT NOT NULL,
        message_id TEXT NOT NULL UNIQUE,
        message TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT NOT NULL,
        sent_at TEXT,
        last_error TEXT,
        created_at TEXT NOT NULL
      ) STRICT;
      INSERT INTO mail_outbox_next (id, kind, source_id, subject_email, message_id, message, attempts, next_attempt_at, sent_at, last_error, created_at)
        SELECT id, kind, source_id, subject_email, message_id, message, attempts, next_attempt_at, sent_at, last_error, created_at FROM mail_outbox;
      DROP TABLE mail_outbox;
      ALTER TABLE mail_outbox_next RENAME TO mail_outbox;
      CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL;
      CREATE INDEX mail_outbox_subject_email ON mail_outbox (subject_email COLLATE NOCASE);
    `,
  },
  {
    version: 12,
    name: 'agency brand',
    sql: `
      -- The business's name as the agency corrected it (npm run audit -- --id N --brand NAME):
      -- searched for instead of the one read from the site, by the request's runs from then on.
      ALTER TABLE audit_submissions ADD COLUMN brand TEXT;
    `,
  },
  {
    version: 13,
    name: 'one run machine',
    sql: `
      -- Every full run, an audit request's (audit_id) or a monitored client's (client_id), in one
      -- table: what both kinds do is written once (server/runs/). trigger: who queued it (the
      -- command, AUDIT_AUTO, the schedule). series: a client's question series. questions: the
      -- questions the run asks, fixed beforehand for a client, kept once made for an audit
      -- (PlannedQuestion[] JSON), so that its answers can be counted again. facts: what a
      -- client's trend compares (MonitorRunFacts JSON). not_before: a run the day's
      -- PROBE_DAILY_CALLS cannot hold waits for the next UTC day. sent_at: when the prospect's
      -- mail with its report's link was queued.
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        audit_id INTEGER REFERENCES audit_submissions (id) ON DELETE CASCADE,
        client_id INTEGER REFERENCES clients (id) ON DELETE CASCADE,
        status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'stopped', 'failed')),
        trigger TEXT NOT NULL CHECK (trigger IN ('command', 'auto', 'schedule')),
        series INTEGER,
        prompts INTEGER NOT NULL,
        calls_planned INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        progress TEXT,
        reason TEXT,
        visibility_score INTEGER,
        readiness_score INTEGER,
        summary TEXT,
        document TEXT,
        facts TEXT,
        check_report TEXT,
        questions TEXT,
        not_before TEXT,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT,
        sent_at TEXT,
        CHECK ((audit_id IS NULL) <> (client_id IS NULL))
      ) STRICT;
      CREATE INDEX runs_audit_id ON runs (audit_id);
      CREATE INDEX runs_client_id ON runs (client_id);
      CREATE INDEX runs_pending ON runs (id) WHERE status IN ('queued', 'running');

      -- Each answer of a run as it arrives (ProbeAnswer JSON), by assistant and question: a run
      -- resumed asks only what has no answer here, so none is paid twice.
      CREATE TABLE run_answers (
        run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        assistant TEXT NOT NULL,
        question INTEGER NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (run_id, assistant, question)
      ) STRICT, WITHOUT ROWID;

      -- The links given out: to an audit run's report (run_id), or to a client's page (client_id).
      -- Only the SHA-256 of each token is kept.
      CREATE TABLE run_links (
        token_hash TEXT PRIMARY KEY,
        run_id INTEGER REFERENCES runs (id) ON DELETE CASCADE,
        client_id INTEGER REFERENCES clients (id) ON DELETE CASCADE,
        audience TEXT NOT NULL CHECK (audience IN ('agency', 'prospect', 'client')),
        created_at TEXT NOT NULL,
        CHECK ((run_id IS NULL) <> (client_id IS NULL))
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX run_links_run_id ON run_links (run_id);
      CREATE INDEX run_links_client_id ON run_links (client_id);

      -- Every stored run, answer and link carried over: an audit run keeps its number (the agency
      -- has it in mails), a client's run is numbered after them.
      INSERT INTO runs (id, audit_id, status, trigger, prompts, calls_planned, attempts, progress, reason, visibility_score, readiness_score, summary, document, check_report, created_at, started_at, finished_at, sent_at)
        SELECT id, audit_id, status, trigger, prompts, calls_planned, attempts, progress, reason, visibility_score, readiness_score, summary, document, check_report, created_at, started_at, finished_at, sent_at FROM audit_runs;
      CREATE TEMP TABLE client_run_numbers AS
        SELECT id AS old, (SELECT coalesce(max(id), 0) FROM audit_runs) + row_number() OVER (ORDER BY id) AS new FROM client_runs;
      INSERT INTO runs (id, client_id, status, trigger, series, prompts, calls_planned, attempts, progress, reason, visibility_score, readiness_score, summary, document, facts, check_report, questions, not_before, created_at, started_at, finished_at)
        SELECT numbers.new, run.client_id, run.status, run.trigger, run.series, run.prompts, run.calls_planned, run.attempts, run.progress, run.reason, run.visibility_score, run.readiness_score,
               run.summary, run.document, run.facts, run.check_report,
               (SELECT questions FROM clients WHERE clients.id = run.client_id AND clients.series = run.series), run.not_before, run.created_at, run.started_at, run.finished_at
        FROM client_runs AS run JOIN client_run_numbers AS numbers ON numbers.old = run.id;
      INSERT INTO run_answers (run_id, assistant, question, answer) SELECT run_id, assistant, question, answer FROM audit_answers;
      INSERT INTO run_answers (run_id, assistant, question, answer)
        SELECT numbers.new, answer.assistant, answer.question, answer.answer FROM client_answers AS answer JOIN client_run_numbers AS numbers ON numbers.old = answer.run_id;
      INSERT INTO run_links (token_hash, run_id, audience, created_at) SELECT token_hash, run_id, audience, created_at FROM audit_links;
      INSERT INTO run_links (token_hash, client_id, audience, created_at) SELECT token_hash, client_id, audience, created_at FROM client_links;
      DROP TABLE client_run_numbers;
      DROP TABLE audit_links;
      DROP TABLE audit_answers;
      DROP TABLE audit_runs;
      DROP TABLE client_links;
      DROP TABLE client_answers;
      DROP TABLE client_runs;
    `,
  },
];

/** The schema version this code brings a database to; a newer one was made by a later release. */
export const LATEST_SCHEMA_VERSION = Math.max(...migrations.map((migration) => migration.version));
