import type { Messages } from "../i18n/get-messages";
import { brandColours, brandName, supportUrl } from "./brand";

/**
 * The brand on the authorization error page (lib/http/html.ts htmlErrorPage): a page without our
 * stylesheet and with no images allowed by its policy, so the name as text, in the brand's colour for
 * each scheme (inline rules, which that page's policy permits), and the support link.
 */
export function errorPageBrand(t: Messages): { name: string; css: string; support?: { href: string; text: string } } {
  const colours = brandColours();
  const light = colours?.light.ink ?? "#1e40af";
  const dark = colours?.dark.ink ?? "#93c5fd";
  // Colours are validated hex values (lib/config.ts), safe in a style element.
  const css = `p.brand{font-weight:600;text-transform:uppercase;letter-spacing:.05em;font-size:.85rem;color:${light}}`
    + `a{color:${light}}@media (prefers-color-scheme: dark){body{background:#0f172a;color:#f1f5f9}`
    + `h2,p.detail{color:#cbd5e1!important}p.brand,a{color:${dark}}}`;
  const href = supportUrl();
  return { name: brandName(t), css, ...(href ? { support: { href, text: t.branding.support } } : {}) };
}
