import type { Metadata, Viewport } from "next";
import { brandName } from "@/lib/branding/brand";
import { pageLanguage } from "@/lib/i18n/page-language";
import "./globals.css";

/**
 * The title (the operator's name, lib/branding) and description in the page's language (pageLanguage():
 * computed once per request, shared with the page).
 */
export async function generateMetadata(): Promise<Metadata> {
  const t = await pageLanguage();
  return { title: brandName(t), description: t.signIn.title };
}

// Every page is rendered per request: the CSP nonce (proxy.ts) must be on Next's scripts, and a
// prerendered page would carry none (its scripts would then be blocked).
export const dynamic = "force-dynamic";

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

/** `<html lang>` is the page's language (issue 17): the screens' (lib/i18n/page-language.ts), English on the English-only pages. */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const t = await pageLanguage();
  return (
    <html lang={t.lang}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
