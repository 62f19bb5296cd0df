import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { expectAccessible } from "../fixtures/a11y";
import { DISPLAYS } from "../fixtures/displays";
import { createRpClient } from "../fixtures/relying-party";
import { expect, test } from "../fixtures/test";
import { baseUrl, db } from "../fixtures/test-data";
import { latestMessage, readNewCode } from "../screens/device-inbox";
import { startAuthorization } from "../screens/authorize";
import { signInFlow } from "../screens/flow";
import { signInWithCode } from "../screens/sign-in";

// The subscriber's account page (issue 17, docs/account.md): signed in with the same code, it lists the
// apps allowed (forget), the handsets (remove) and the recent sign-ins, in every display, without script.

mkdirSync("test-results/screens", { recursive: true });

/** A registered handset for `subscriberId`, as enrolment leaves it. */
async function enrolHandset(subscriberId: string, name: string) {
  await db.device.create({ data: { id: randomUUID(), subscriberId, name, secretHash: randomUUID() } });
}

/** Opens /account (query kept) and signs in with the code from the device inbox (and the PIN at level 3). */
async function signInToAccount(page: import("@playwright/test").Page, subscriber: { msisdn: string; pin: string },
  query = "") {
  await page.goto(`${baseUrl()}/account${query}`);
  await signInWithCode(page, { msisdn: subscriber.msisdn, pin: query.includes("level=3") ? subscriber.pin : undefined });
  await expect(page).toHaveURL(/\/account\?/);
}

test("sign in with a code, see the app allowed earlier, forget it, remove a handset", async ({ page, rp, subscriber }) => {
  // A normal sign-in to an app, consent allowed (remembered).
  await signInFlow(page, rp, subscriber, { scope: "openid mc_identity_phonenumber" });
  await enrolHandset(subscriber.id, "Kitchen phone");

  await signInToAccount(page, subscriber);
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByText("Signed in at level 2.")).toBeVisible();
  const apps = page.getByRole("list", { name: "Apps you have allowed" });
  await expect(apps.getByRole("heading", { name: rp.name })).toBeVisible();
  await expect(apps.getByRole("list", { name: `${rp.name} may:` })).toContainText("See your mobile number");
  const signIns = page.getByRole("table", { name: "Recent sign-ins" });
  await expect(signIns.getByRole("row").filter({ hasText: rp.name })).toContainText("2");
  await expect(signIns.getByRole("row").filter({ hasText: "This account page" }).first()).toBeVisible();

  await page.getByRole("button", { name: `Forget ${rp.name}` }).click();
  await expect(page.getByRole("status")).toHaveText("The app was forgotten. It will ask your permission again.");
  await expect(page.getByRole("button", { name: `Forget ${rp.name}` })).toHaveCount(0);
  await expect(page.getByText("You have not allowed any app yet.")).toBeVisible();

  await page.getByRole("button", { name: "Remove Kitchen phone" }).click();
  await expect(page.getByRole("status")).toContainText("The phone was removed.");
  await expect(page.getByText("No phone is registered for approvals.")).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("status")).toHaveText("You are signed out of your account page.");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expectAccessible(page, "account-signed-out");

  // The forgotten app asks consent again at its next sign-in.
  await startAuthorization(page, rp, { scope: "openid mc_identity_phonenumber" });
  await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();
});

for (const { display, use } of DISPLAYS) {
  test.describe(`display=${display}`, () => {
    test.use(use);

    test(`the account page works and passes axe${display === "wap" ? " without JavaScript" : ""}`, async ({ page, rp, subscriber }) => {
      await db.grant.create({ data: { id: randomUUID(), subscriberId: subscriber.id, clientId: rp.id,
        scope: "openid mc_identity_phonenumber" } });
      await enrolHandset(subscriber.id, "Work phone");
      await signInToAccount(page, subscriber, `?display=${display}`);
      expect(new URL(page.url()).searchParams.get("display")).toBe(display);
      await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
      await expect(page.getByRole("button", { name: `Forget ${rp.name}` })).toBeVisible();
      await page.screenshot({ path: `test-results/screens/account-${display}.png`, fullPage: true });
      await expectAccessible(page, `account-${display}`, { scriptless: display === "wap" });

      await page.getByRole("button", { name: `Forget ${rp.name}` }).click();
      await expect(page.getByRole("status")).toContainText("The app was forgotten.");
      expect(new URL(page.url()).searchParams.get("display")).toBe(display);
      await expect(page.getByRole("button", { name: "Remove Work phone" })).toBeVisible();
      await expectAccessible(page, `account-${display}-notice`, { scriptless: display === "wap" });
    });
  });
}

test("in French, from ui_locales to the sign-in screens and back", async ({ page, subscriber }) => {
  await page.goto(`${baseUrl()}/account?ui_locales=fr`);
  const before = await latestMessage(page, subscriber.msisdn);
  await page.getByLabel("Numéro de mobile").fill(`+${subscriber.msisdn}`);
  await page.getByRole("button", { name: "Continuer" }).click();
  await page.getByLabel("Code").fill(await readNewCode(page, subscriber.msisdn, before));
  await page.getByRole("button", { name: "Continuer" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Votre compte" })).toBeVisible();
  await expect(page.getByText("Vous n’avez encore autorisé aucune application.")).toBeVisible();
  await page.screenshot({ path: "test-results/screens/account-page-fr.png", fullPage: true });
  await expectAccessible(page, "account-fr");
});

test("level 3 asks the PIN too", async ({ page, subscriber }) => {
  await page.goto(`${baseUrl()}/account?level=3`);
  await signInWithCode(page, { msisdn: subscriber.msisdn, pin: subscriber.pin });
  await expect(page.getByText("Signed in at level 3.")).toBeVisible();
});

test("the user code: set with the PIN, a wrong current code refused, changed and removed with the current code",
  async ({ page, subscriber }) => {
    await signInToAccount(page, subscriber);
    const section = page.getByRole("region", { name: "Code for sign-in requests" });
    await section.getByLabel("Your PIN").fill(subscriber.pin);
    await section.getByLabel("New code").fill("73915");
    await section.getByRole("button", { name: "Save the code" }).click();
    await expect(page.getByRole("status")).toContainText("Your code is saved.");

    // Issue 33: the account session alone does not change the code. The subscriber says what they type: the current
    // code and the PIN are two fields of one group.
    const proof = section.getByRole("group", { name: "Confirm it is you with one of these" });
    await expect(proof.getByLabel("Your current code")).toBeVisible();
    await expect(proof.getByLabel("or your PIN")).toBeVisible();
    await expectAccessible(page, "account-user-code-two-fields");
    await proof.getByLabel("Your current code").fill("48261");
    await section.getByLabel("Replace your code").fill("604182");
    await section.getByRole("button", { name: "Change the code" }).click();
    await expect(page.locator("main").getByRole("alert")).toContainText("Your current code was not right.");
    await expectAccessible(page, "account-user-code-refused");

    await proof.getByLabel("Your current code").fill("73915");
    await section.getByLabel("Replace your code").fill("604182");
    await section.getByRole("button", { name: "Change the code" }).click();
    await expect(page.getByRole("status")).toContainText("Your code is saved.");
    // Remove needs no new code (the button skips the browser's check), only the current one: here the PIN.
    await proof.getByLabel("or your PIN").fill(subscriber.pin);
    await section.getByRole("button", { name: "Remove the code" }).click();
    await expect(page.getByRole("status")).toHaveText("Your code was removed.");
    await expect(section.getByText("You have no code")).toBeVisible();
  });

test.describe("display=wap, without script", () => {
  test.use(DISPLAYS.find((d) => d.display === "wap")!.use);

  test("the user code's two proof fields, in French, pass axe", async ({ page, subscriber }) => {
    await signInToAccount(page, subscriber, "?display=wap");
    await page.goto(`${baseUrl()}/account?display=wap&ui_locales=fr`);
    const section = page.getByRole("region", { name: "Code pour les demandes de connexion" });
    await section.getByLabel("Votre code PIN").fill(subscriber.pin);
    await section.getByLabel("Nouveau code").fill("73915");
    await section.getByRole("button", { name: "Enregistrer le code" }).click();
    await expect(page.getByRole("status")).toContainText("Votre code est enregistré.");
    const proof = section.getByRole("group", { name: "Confirmez que c’est vous avec l’un des deux" });
    await expect(proof.getByLabel("Votre code actuel")).toBeVisible();
    await page.screenshot({ path: "test-results/screens/account-user-code-wap-fr.png", fullPage: true });
    await expectAccessible(page, "account-user-code-wap-fr", { scriptless: true });
    await proof.getByLabel("Votre code actuel").fill("48261");
    await section.getByLabel("Remplacer votre code").fill("604182");
    await section.getByRole("button", { name: "Changer le code" }).click();
    await expect(page.locator("main").getByRole("alert")).toContainText("Votre code actuel n’était pas le bon.");
    expect(new URL(page.url()).searchParams.get("display")).toBe("wap");
    await proof.getByLabel("ou votre code PIN").fill(subscriber.pin);
    await section.getByRole("button", { name: "Supprimer le code" }).click();
    await expect(page.getByRole("status")).toHaveText("Votre code a été supprimé.");
  });
});

test("a browser signed in to another app is asked the code again, even when prompt=login is taken off",
  async ({ page, rp, subscriber }) => {
    await signInFlow(page, rp, subscriber);
    // The address /account/start sends to, without prompt=login (page.request shares the browser's cookies).
    const start = await page.request.get(`${baseUrl()}/account/start`, { maxRedirects: 0 });
    const authorize = new URL(start.headers().location!);
    expect(authorize.searchParams.get("prompt")).toBe("login");
    authorize.searchParams.delete("prompt");
    await page.goto(authorize.toString());
    await expect(page.getByLabel("Mobile number")).toBeVisible();
    await expect(page.getByRole("button", { name: "Approve on your phone instead" })).toHaveCount(0);
    await signInWithCode(page, { msisdn: subscriber.msisdn });
    await expect(page).toHaveURL(/\/account\?/);
    await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  });
