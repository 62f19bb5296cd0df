import { themeCss } from "@/lib/branding/brand";

/**
 * GET /brand/theme.css: the operator's colours as the custom properties of app/globals.css, for the
 * light and the dark scheme (lib/branding/brand.ts). A stylesheet of our own origin, so the pages'
 * CSP (`style-src 'self'`) needs no inline style. Empty without brand colours; cached for a day, the
 * screens link it with a `?v=` of its content.
 */
export function GET(): Response {
  return new Response(themeCss(), {
    headers: { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff" },
  });
}
