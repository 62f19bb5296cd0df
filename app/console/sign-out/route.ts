import { consolePost } from "@/lib/console/console-post";
import { endStaffSessions } from "@/lib/console/staff-accounts";
import { CONSOLE_SIGN_IN_PATH } from "@/lib/console/console-auth";
import { consoleCookieNames } from "@/lib/console/console-session";
import { isHttpsIssuer } from "@/lib/http/security-headers";

// POST /console/sign-out - ends the member's console sessions (every one: the session version moves on,
// so a copied cookie stops working too) and clears the cookie; audited as staff_sign_out.
export const POST = consolePost("viewer", async ({ staff }) => {
  await endStaffSessions(staff.id);
  const secure = isHttpsIssuer() ? "; Secure" : "";
  return {
    back: `${CONSOLE_SIGN_IN_PATH}`,
    done: "signed_out",
    audit: { type: "staff_sign_out", outcome: "success" },
    setCookies: [`${consoleCookieNames().sessionToken}=; Path=/console; HttpOnly; SameSite=Lax; Max-Age=0${secure}`],
  };
});
export const dynamic = "force-dynamic";
