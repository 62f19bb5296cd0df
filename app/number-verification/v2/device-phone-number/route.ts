import { handleDevicePhoneNumber } from "@/lib/network-apis/number-verification/device-phone-number";

// GET /number-verification/v2/device-phone-number (CAMARA, docs/network-apis.md; other methods: 405 from Next.js)
export const GET = handleDevicePhoneNumber;
export const dynamic = "force-dynamic";
