import { handleLanguageSwitch } from "@/lib/i18n/switch-language";

// GET /language?lang=fr&back=<path>: the on-page language switch (lib/i18n/switch-language.ts)
export const GET = (req: Request) => handleLanguageSwitch(req);
export const dynamic = "force-dynamic";
