import type { Db } from './database';

/**
 * After a restart, for a queue whose worker marks a row running while it works on it (site
 * checks, visibility probes): the rows a stopped process left running are queued again, in one
 * write transaction, unless they have been started `maxAttempts` times already; those are
 * returned, for the worker to record as failed.
 */
export function requeueInterrupted<Row extends { id: number; attempts: number }>(
  db: Db,
  rows: { running: { all(): Row[] }; requeue: { run(id: number): unknown } },
  maxAttempts: number,
): Row[] {
  return db
    .transaction(() => {
      const givenUp: Row[] = [];
      for (const row of rows.running.all()) {
        if (row.attempts < maxAttempts) rows.requeue.run(row.id);
        else givenUp.push(row);
      }
      return givenUp;
    })
    .immediate();
}
