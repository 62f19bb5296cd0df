import { withdrawNetworkConsent } from "@/lib/account/account-actions";
import { accountPost } from "@/lib/account/account-post";

// POST /account/withdraw-consent - a network-API consent withdrawn (per app and purpose), the app's tokens carrying
// that purpose revoked, audited (docs/network-apis.md "Consent and withdrawal")
export const POST = accountPost(withdrawNetworkConsent);
export const dynamic = "force-dynamic";
