import { beforeAll } from "vitest";
import type { Prisma, PrismaClient } from "@prisma/client";
import { createPrismaClient } from "@/lib/db";
import { setStatementListener } from "@/lib/store/statement-listener";
import { config } from "@/lib/config";

/**
 * Records the SQL statements the in-process handlers run, against the test database: a Prisma client that
 * reports its queries (installed where lib/db.ts looks for it) and the hot-path store's prepared statements,
 * which report themselves. Call at the top of a test file; returns `measure(run)`: the response's status and
 * body and the statements `run` caused.
 */
export function recordStatements() {
  const statements = statementLog();
  return async function measure(run: () => Promise<Response>) {
    statements.length = 0;
    const res = await run();
    return { status: res.status, body: await res.json(), statements: [...statements] };
  };
}

/** The list the statements are appended to (recorded from the file's beforeAll on), for tests that read it raw. */
export function statementLog(): string[] {
  const statements: string[] = [];
  beforeAll(() => {
    // The SQLite or the PostgreSQL client, whichever the suite runs on, typed with its query events.
    const prisma = createPrismaClient(config().DATABASE_URL, { log: [{ emit: "event", level: "query" }] }) as
      unknown as PrismaClient<Prisma.PrismaClientOptions, "query">;
    prisma.$on("query", (e) => statements.push(e.query));
    setStatementListener((sql) => statements.push(sql));
    (globalThis as unknown as { prisma: PrismaClient }).prisma = prisma;
  });
  return statements;
}
