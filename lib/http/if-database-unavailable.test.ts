import { describe, expect, it, vi } from "vitest";
import { logger } from "../log";
import { ifDatabaseUnavailable } from "./if-database-unavailable";
import { DatabaseUnavailableError } from "./is-database-unavailable";

// The one catch for a database outage: one warning line and the caller's answer, or nothing at all.
describe("ifDatabaseUnavailable", () => {
  it("answers an outage anywhere in the cause chain and logs its code, never its stack", () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const err = new Error("query failed", { cause: Object.assign(new Error("database is locked\nat x.ts"),
      { code: "SQLITE_BUSY" }) });
    expect(ifDatabaseUnavailable(err, () => "503", "req-1")).toBe("503");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]).toEqual([{ requestId: "req-1", dbError: undefined, reason: "query failed" },
      "database unavailable"]);
    expect(ifDatabaseUnavailable(new DatabaseUnavailableError(), () => 1)).toBe(1);
    expect(warn.mock.calls[1]![0]).toEqual({ requestId: undefined, dbError: undefined,
      reason: "The database is unavailable." });
    warn.mockRestore();
  });

  it("leaves every other error to the caller, without logging or answering", () => {
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const answer = vi.fn(() => "503");
    for (const err of [new Error("boom"), Object.assign(new Error("unique"), { code: "P2002" }), null, "x"]) {
      expect(ifDatabaseUnavailable(err, answer)).toBeUndefined();
    }
    expect(answer).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
