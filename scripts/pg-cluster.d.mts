/** Types of scripts/pg-cluster.mjs (a plain ES module shared by scripts/test.mjs and test/support). */
export function findPostgresBin(): string | undefined;
export function startPgCluster(opts?: { maxConnections?: number }): Promise<{ url: string; dir: string; stop(): void }>;
