import type { Prisma, PrismaClient } from "@prisma/client";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { createPrismaClient } from "@/lib/db";
import { setStatementListener } from "@/lib/store/statement-listener";
import { browserCookieName } from "@/lib/sessions/browser-cookie";
import { createTestClient, createTestSubscriber } from "@/test/support/fixtures";
import { grant, requestFor, signedInBrowser } from "@/test/support/authorize-support";
import { db } from "@/lib/db";
import { handleAuthorize } from "@/lib/oauth/authorize/handle-authorize";
import { handleResume } from "@/lib/oauth/authorize/handle-resume";

// Every statement the handler sends, counted on the process's one Prisma client (lib/db reuses it)
// and on the hot-path store (lib/store).
const statements: string[] = [];
beforeAll(() => {
  // The SQLite or the PostgreSQL client, whichever the suite runs on, typed with its query events.
  const prisma = createPrismaClient(config().DATABASE_URL, { log: [{ emit: "event", level: "query" }] }) as
    unknown as PrismaClient<Prisma.PrismaClientOptions, "query">;
  prisma.$on("query", (e) => statements.push(e.query));
  setStatementListener((sql) => statements.push(sql)); // lib/store's prepared statements
  (globalThis as unknown as { prisma: PrismaClient }).prisma = prisma;
});

// SQLite takes the write lock at BEGIN (lib/store/sqlite-store.ts); PostgreSQL's plain BEGIN. On SQLite a
// lone write joins its event-loop turn's group commit (a transaction of its own when alone); PostgreSQL
// sends it as it is.
const SQLITE = config().DATABASE_URL.startsWith("file:");
const BEGIN = SQLITE ? "BEGIN IMMEDIATE" : "BEGIN";
const inGroupCommit = (write: unknown) => (SQLITE ? [BEGIN, write, "COMMIT"] : [write]);

// The statements of /authorize on its two ways to a code (docs/architecture.md, "Hot-path store").
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
      ...inGroupCommit(expect.stringMatching(/^INSERT INTO "?AuthorizationCode/)),
    ]);
  });
});

describe("a stored request consented on the screens, resumed", () => {
  it("completes the request, inserts the code and records the pairwise subject in one transaction", async () => {
    const client = await createTestClient();
    const subscriber = await createTestSubscriber();
    const { browserId, session } = await signedInBrowser(subscriber);
    const cookie = `${browserCookieName()}=${browserId}`;
    const first = await handleAuthorize(new Request(
      `http://127.0.0.1/authorize?${new URLSearchParams(requestFor(client, { prompt: "consent" }))}`, { headers: { cookie } }));
    const id = new URL(first.headers.get("location")!).pathname.split("/").pop()!;
    await db.authorizationRequest.update({ where: { id }, data: { status: "consented", sessionId: session.id } });
    statements.length = 0;
    const res = await handleResume(new Request(`http://127.0.0.1/authorize/resume/${id}`, { headers: { cookie } }), { id });
    expect(res.headers.get("location")).toContain("code=");
    // The request row and the browser's sessions (consented on the screens: no grant read), then the
    // code's one transaction on the hot-path store. Until issue 16 it ran on Prisma, whose query log
    // does not show the BEGIN it sends: the same seven statements.
    expect(statements.map((s) => s.replace(/\s+/g, " "))).toEqual([
      expect.stringMatching(/^SELECT .* FROM [`"]?((main|public)[`"]?\.[`"]?)?AuthorizationRequest/),
      expect.stringMatching(/^SELECT .* FROM "?Session/),
      BEGIN, expect.stringMatching(/^UPDATE "AuthorizationRequest" SET "status" = 'completed'/),
      expect.stringMatching(/^INSERT INTO "?AuthorizationCode/), expect.stringMatching(/^INSERT INTO "?PairwiseSubject/),
      "COMMIT",
    ]);
  });
});
