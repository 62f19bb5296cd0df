import { describe, expect, it } from "vitest";
import { stepsOf } from "./pipeline";

// The order of the authorization steps is behaviour: which errors are shown on our page and which go
// to the client, what a resumed or waiting request checks first. A step moved, added or dropped fails here.
describe("the authorization pipeline", () => {
  it("runs /authorize: request, client, parameters, hints, then prompt=mobile or the decision and the code", () => {
    expect(stepsOf("authorize")).toEqual(["readParameters", "readBrowser", "readRequestObject", "checkClient",
      "enforceRequestRules", "authenticateClient", "validate", "resolveRequestHints", "startOutOfBand", "decide", "authenticateByNetwork", "refusePromptNone", "showInteraction", "issue"]);
  });

  it("runs /authorize/resume/{id}: the stored request, denied, expired, then the same decision as /authorize", () => {
    expect(stepsOf("resume")).toEqual(["loadStored", "refuseDenied", "refuseExpired", "decide", "refusePromptNone",
      "showInteraction", "issue"]);
  });

  it("runs /authorize/wait/{id}: the stored request, its handset request, denied, the handset's answer, the code", () => {
    expect(stepsOf("wait")).toEqual(["loadStored", "findHandset", "refuseDenied", "awaitHandset", "issue"]);
  });
});
