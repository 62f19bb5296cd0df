import { PrismaClient } from "@prisma/client";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { createAdapter } from "@/lib/db";
import { setStatementListener } from "@/lib/store/statement-listener";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { grant, requestFor, signedInBrowser } from "@/test/support/authorize-support";
import { handleAuthorize } from "./handle-authorize";

// Every statement the handler sends, counted on the process's one Prisma client (lib/db reuses it)
// and on the hot-path store (lib/store).
const statements: string[] = [];
beforeAll(() => {
  const prisma = new PrismaClient({ adapter: createAdapter(inject("databaseUrl")), log: [{ emit: "event", level: "query" }] });
  prisma.$on("query", (e) => statements.push(e.query));
  setStatementListener((sql) => statements.push(sql)); // lib/store's prepared statements
  (globalThis as unknown as { prisma: PrismaClient }).prisma = prisma;
});

describe("the fast path (session + remembered consent, no stored request)", () => {
  it("costs two reads and one write: sessions, grant, the code insert (in its group commit)", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    await grant(subscriber, client);
    const { browserId } = await signedInBrowser(subscriber);
    const call = () => handleAuthorize(new Request(`http://127.0.0.1/authorize?${new URLSearchParams(requestFor(client))}`,
      { headers: { cookie: `${browserCookieName()}=${browserId}` } }));
    expect((await call()).headers.get("location")).toContain("code="); // warms the client cache
    statements.length = 0;
    const res = await call();
    expect(res.headers.get("location")).toContain("code=");
    expect(statements.map((s) => s.replace(/\s+/g, " "))).toEqual([
      expect.stringMatching(/^SELECT .* FROM "?Session/), expect.stringMatching(/^SELECT .* FROM "?Grant/),
      "BEGIN IMMEDIATE", expect.stringMatching(/^INSERT INTO "?AuthorizationCode/), "COMMIT",
    ]);
  });
});
