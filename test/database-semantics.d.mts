/** Test files that run on SQLite and PostgreSQL (test/database-semantics.mjs). */
export declare const databaseSemanticsFiles: readonly string[];
