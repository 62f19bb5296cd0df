import { describe, expect, it } from "vitest";
import { movedPath } from "./moved-path";

describe("movedPath", () => {
  it("sends the old handset area and everything below it to /handset", () => {
    expect(movedPath("/device")).toBe("/handset");
    expect(movedPath("/device/enrol")).toBe("/handset/enrol");
    expect(movedPath("/device/requests/abc")).toBe("/handset/requests/abc");
  });

  it("leaves every other path alone, including look-alikes", () => {
    for (const p of ["/handset", "/devices", "/device-inbox", "/interaction/device", "/", "/devicex/enrol"]) {
      expect(movedPath(p)).toBeNull();
    }
  });
});
