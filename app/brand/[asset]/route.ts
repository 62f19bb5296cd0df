import { config } from "@/lib/config";
import { logo, themeCss } from "@/lib/branding/brand";
import { hstsHeaders } from "@/lib/http/security-headers";

/**
 * The operator's brand assets (lib/branding, docs/configuration.md "Branding"), served by the service
 * itself so nothing is fetched from elsewhere at run time. Both are cached for a day: the screens
 * link them with a `?v=` of their content.
 * - GET /brand/theme.css: the brand colours as the custom properties of app/globals.css, light and
 *   dark (empty without BRAND_PRIMARY); a stylesheet of our origin, so no inline style is needed.
 * - GET /brand/logo: the BRAND_LOGO file (SVG or PNG, read once), 404 without one. An SVG opened on
 *   its own must not run anything in our origin: no script, sandboxed.
 */
export async function GET(_req: Request, { params }: { params: Promise<{ asset: string }> }): Promise<Response> {
  const { asset } = await params;
  const common = { "Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff", ...hstsHeaders() };
  if (asset === "theme.css") {
    return new Response(themeCss(), { headers: { ...common, "Content-Type": "text/css; charset=utf-8" } });
  }
  if (asset === "logo" && config().BRAND_LOGO) {
    const { bytes, type } = logo();
    return new Response(new Uint8Array(bytes), { headers: { ...common, "Content-Type": type,
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox" } });
  }
  return new Response("Not found", { status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" } });
}
