import { config } from "@/lib/config";
import { logo } from "@/lib/branding/brand";

/**
 * GET /brand/logo: the operator's logo (BRAND_LOGO, an SVG or PNG file on this server, read once),
 * 404 when none is configured. Cached for a day: the screens link it with a `?v=` of its content.
 * An SVG opened on its own must not run anything in our origin: no script, sandboxed.
 */
export function GET(): Response {
  if (!config().BRAND_LOGO) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const { bytes, type } = logo();
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": type,
      "Cache-Control": "public, max-age=86400",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
