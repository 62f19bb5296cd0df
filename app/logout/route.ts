import { handleLogout } from "@/lib/oauth/logout/handle-logout";

// GET|POST {end_session_endpoint} - OpenID Connect RP-Initiated Logout 1.0 §2 (HTML, not JSON)
export const GET = handleLogout;
export const POST = handleLogout;
export const dynamic = "force-dynamic";
