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
    name: 'schema metadata',
    sql: `CREATE TABLE IF NOT EXISTS schema_notes (key TEXT PRIMARY KEY, value TEXT NOT NULL);
          INSERT OR IGNORE INTO schema_notes (key, value) VALUES ('created_by', 'citewise-site');`,
  },
];
