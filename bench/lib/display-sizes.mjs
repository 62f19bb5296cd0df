// Bytes a phone downloads for the sign-in page, per display: a pending authorization is created
// (GET /authorize without a session → 302 to /interaction/{id} with the browser cookie), the page is
// fetched with a browser's Accept-Encoding, then every <script src> and stylesheet it references.
// "Transferred" is what crossed the wire: the response head (status line + headers) and the body as
// sent (compressed when the server compressed it); "decoded" is the body after decompression.
import zlib from "node:zlib";
import { createHttpClient, mergeCookies } from "./http-client.mjs";

const ACCEPT_ENCODING = "gzip, deflate, br";
const DISPLAYS = ["page", "popup", "touch", "wap"];

function decode(res) {
  const enc = res.headers["content-encoding"];
  if (enc === "gzip") return zlib.gunzipSync(res.raw);
  if (enc === "br") return zlib.brotliDecompressSync(res.raw);
  if (enc === "deflate") return zlib.inflateSync(res.raw);
  return res.raw;
}

function headBytes(res) {
  let n = `HTTP/1.1 ${res.status} \r\n\r\n`.length;
  for (let i = 0; i < res.rawHeaders.length; i += 2) n += res.rawHeaders[i].length + res.rawHeaders[i + 1].length + 4;
  return n;
}

async function measure(http, path, headers) {
  const res = await http.request("GET", path, { headers: { "accept-encoding": ACCEPT_ENCODING, ...headers } });
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  const body = decode(res);
  return { status: res.status, transferred: headBytes(res) + res.raw.length, bodyOnWire: res.raw.length,
    decoded: body.length, encoding: res.headers["content-encoding"] ?? "identity", body };
}

/** Sign-in page sizes for each display, with its scripts and stylesheets. */
export async function measureDisplays(target) {
  const http = createHttpClient(target.origin, { sockets: 1 });
  const out = {};
  try {
    for (const display of DISPLAYS) {
      const q = new URLSearchParams({ response_type: "code", client_id: target.client.id, redirect_uri: target.redirectUri,
        scope: target.flowScope, acr_values: "3", state: `display-${display}`, nonce: `display-${display}`, display });
      const start = await http.request("GET", `${target.paths.authorize}?${q}`);
      const location = start.headers.location ?? "";
      if (start.status !== 302 || !/\/interaction\//.test(location)) {
        throw new Error(`authorize without a session answered ${start.status} ${location}`);
      }
      const cookie = mergeCookies("", start.headers["set-cookie"]);
      const pagePath = location.startsWith("http") ? new URL(location).pathname + new URL(location).search : location;
      const page = await measure(http, pagePath, { cookie });
      const html = page.body.toString("utf8");
      const scriptSrcs = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]);
      const styleHrefs = [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*>/g)]
        .map((m) => /\bhref="([^"]+)"/.exec(m[0])?.[1]).filter(Boolean);
      const fetchAll = async (urls) => {
        const list = [];
        for (const u of urls) {
          const p = u.startsWith("http") ? new URL(u).pathname : u.replace(/&amp;/g, "&");
          const r = await measure(http, p, {});
          list.push({ path: p, transferred: r.transferred, decoded: r.decoded, encoding: r.encoding });
        }
        return list;
      };
      const scripts = await fetchAll(scriptSrcs);
      const styles = await fetchAll(styleHrefs);
      const sum = (list, k) => list.reduce((n, x) => n + x[k], 0);
      out[display] = {
        html: { transferred: page.transferred, bodyOnWire: page.bodyOnWire, decoded: page.decoded, encoding: page.encoding },
        scriptTags: (html.match(/<script\b/g) ?? []).length,
        hasScript: /<script\b/i.test(html),
        scripts: { count: scripts.length, transferred: sum(scripts, "transferred"), decoded: sum(scripts, "decoded"), files: scripts },
        styles: { count: styles.length, transferred: sum(styles, "transferred"), decoded: sum(styles, "decoded"), files: styles },
        totalTransferred: page.transferred + sum(scripts, "transferred") + sum(styles, "transferred"),
      };
    }
  } finally {
    http.close();
  }
  return out;
}
