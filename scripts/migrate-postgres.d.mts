/** Types of scripts/migrate-postgres.mjs. */
export function migratePostgres(url: string, opts?: { log?: (line: string) => void }): Promise<string[]>;
export function createDatabase(adminUrl: string, name: string): Promise<string>;
