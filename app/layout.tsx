import type { Metadata, Viewport } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: "Operator Identity",
  description: "Sign in with your mobile number",
};

// Every page is rendered per request: the CSP nonce (proxy.ts) must be on Next's scripts, and a
// prerendered page would carry none (its scripts would then be blocked).
export const dynamic = "force-dynamic";

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
