import { describe, expect, it } from "vitest";
import { isSameOriginPost } from "./is-same-origin-post";

const post = (headers: HeaderSet) => new Request(`${process.env.ISSUER}/x`, { method: "POST", headers });
const OURS = () => new URL(process.env.ISSUER!).origin;
type HeaderSet = Record<string, string>;

describe("isSameOriginPost", () => {
  it("default (sign-in screens, device pages): Origin checked on every POST, `null` passes", () => {
    for (const headers of <HeaderSet[]>[{}, { origin: OURS() }, { origin: "null" }, { origin: "null", "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none" }, { origin: OURS(), "sec-fetch-site": "same-origin" }]) {
      expect(isSameOriginPost(post(headers)), JSON.stringify(headers)).toBe(true);
    }
    for (const headers of <HeaderSet[]>[{ origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" }, { origin: "https://evil.example", "sec-fetch-site": "same-origin" },
      { origin: OURS(), "sec-fetch-site": "cross-site" }]) {
      expect(isSameOriginPost(post(headers)), JSON.stringify(headers)).toBe(false);
    }
  });

  it("fetchMetadataFirst (playground): Sec-Fetch-Site alone decides when sent; without it `null` is refused", () => {
    const check = (headers: HeaderSet) => isSameOriginPost(post(headers), { fetchMetadataFirst: true });
    for (const headers of <HeaderSet[]>[{}, { origin: OURS() }, { origin: "null", "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none" }, { origin: "https://evil.example", "sec-fetch-site": "same-origin" }]) {
      expect(check(headers), JSON.stringify(headers)).toBe(true);
    }
    for (const headers of <HeaderSet[]>[{ origin: "null" }, { origin: "https://evil.example" }, { "sec-fetch-site": "cross-site" },
      { origin: OURS(), "sec-fetch-site": "same-site" }]) {
      expect(check(headers), JSON.stringify(headers)).toBe(false);
    }
  });
});
