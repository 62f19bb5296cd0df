/** Types of scripts/postgres-schema.mjs. */
export const PG_DIR: string;
export const PG_SCHEMA: string;
export const PG_MIGRATIONS: string;
export const PG_CLIENT_OUTPUT: string;
export function derivePostgresSchema(sqlite: string): string;
export function plan(): { schema: string; latest: { name: string; sql: string; upToDate: boolean } };
export function generatePostgresClient(): number;
