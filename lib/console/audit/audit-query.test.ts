import { describe, expect, it } from "vitest";
import { auditFilterOf, type AuditQuery } from "./audit-query";

const q = (over: Partial<AuditQuery>): AuditQuery =>
  ({ from: "", to: "", type: "", client: "", outcome: "", subscriber: "", before: "", ...over });

describe("auditFilterOf", () => {
  it("refuses times and cursors a Date holds but the database cannot (years outside 2000 to 9999)", () => {
    for (const from of ["-271821-04-20T00:00:00Z", "+275760-09-13T00:00:00Z", "1999-12-31T23:59", "yesterday"]) {
      expect(auditFilterOf(q({ from }), 51), from).toBeNull();
    }
    expect(auditFilterOf(q({ to: "10000-01-01T00:00:00Z" }), 51)).toBeNull();
    for (const before of ["999999999999999.abc", "0.abc", "1.x", "x.y", "1700000000000."]) {
      expect(auditFilterOf(q({ before }), 51), before).toBeNull();
    }
  });

  it("reads the range's edges and a cursor", () => {
    const edges = { from: "2000-01-01T00:00", to: "9999-12-31T23:59:59", before: "1700000000000.a-b" };
    const f = auditFilterOf(q(edges), 51);
    expect(f?.since?.toISOString()).toBe("2000-01-01T00:00:00.000Z");
    expect(f?.until?.toISOString()).toBe("9999-12-31T23:59:59.000Z");
    expect(f?.before).toEqual({ at: new Date(1_700_000_000_000), id: "a-b" });
    expect(auditFilterOf(q({}), 51)?.before).toBeUndefined();
  });
});
