import { describe, expect, it } from "vitest";
import { LeanHeaders } from "../../server/lean-request";

/** Node's raw header list of a request (name, value, name, value, ...) as its parser hands it over. */
const RAW = ["Host", "op.example", "Authorization", "Basic YTpi", "Accept", "text/html", "accept", "application/json",
  "Set-Cookie", "a=1", "set-cookie", "b=2", "X-Empty", ""];

describe("LeanHeaders (the lean server's request headers)", () => {
  it("answers every read as undici's Headers built from the same list", () => {
    const lean = new LeanHeaders(RAW);
    const real = new Headers();
    for (let i = 0; i < RAW.length; i += 2) real.append(RAW[i]!, RAW[i + 1]!);
    expect(lean).toBeInstanceOf(Headers);
    for (const name of ["host", "AUTHORIZATION", "accept", "set-cookie", "x-empty", "missing"]) {
      expect([lean.get(name), lean.has(name)]).toEqual([real.get(name), real.has(name)]);
    }
    expect([...lean]).toEqual([...real]);
    expect([...lean.keys()]).toEqual([...real.keys()]);
    expect([...lean.values()]).toEqual([...real.values()]);
    expect(lean.getSetCookie()).toEqual(real.getSetCookie());
    const seen: string[] = [];
    lean.forEach((v, k) => seen.push(`${k}=${v}`));
    const expected: string[] = [];
    real.forEach((v, k) => expected.push(`${k}=${v}`));
    expect(seen).toEqual(expected);
    // Copied into a real Headers or a Request (what a handler may do): the same entries.
    expect([...new Headers(lean)]).toEqual([...real]);
    expect([...new Request("https://op.example/", { headers: lean }).headers]).toEqual([...real]);
  });

  it("joins repeated Cookie lines into one cookie list, as undici does (the lean /authorize splits it on ';')", () => {
    const raw = ["Cookie", "op_browser=abc", "cookie", "lang=fr"];
    const real = new Headers();
    for (let i = 0; i < raw.length; i += 2) real.append(raw[i]!, raw[i + 1]!);
    expect(new LeanHeaders(raw).get("cookie")).toBe(real.get("cookie"));
    expect(new LeanHeaders(raw).get("cookie")).toBe("op_browser=abc; lang=fr");
  });

  it("set, append and delete change what is read", () => {
    const h = new LeanHeaders(["X-Forwarded-For", "10.0.0.1"]);
    h.append("x-forwarded-for", " 10.0.0.2 ");
    expect(h.get("X-Forwarded-For")).toBe("10.0.0.1, 10.0.0.2");
    h.set("X-Forwarded-For", "127.0.0.1");
    expect(h.get("x-forwarded-for")).toBe("127.0.0.1");
    h.delete("X-FORWARDED-FOR");
    expect([h.has("x-forwarded-for"), h.get("x-forwarded-for")]).toEqual([false, null]);
  });
});
