import { handleCheckSessionIframe } from "@/lib/oauth/logout/check-session-iframe";

// GET {check_session_iframe} - OpenID Connect Session Management 1.0 §3.3 (a static page with its own script)
export const GET = handleCheckSessionIframe;
export const dynamic = "force-dynamic";
