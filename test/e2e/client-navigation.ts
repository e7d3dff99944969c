/**
 * A visit that never asks the server for the page: the home page's link to
 * the dashboard clicked once the app runs in the browser. A client-side
 * router renders the dashboard from the code it already has, so a guard
 * that only sees page requests never runs; --protect must check there too.
 */
import type { Page, Request } from "playwright-core";
import { expect } from "vitest";

export interface ClickedThrough {
  /** Where the click led: Auth.js's sign-in page, or the dashboard with its heading shown. */
  landed: "signin" | "dashboard" | "nowhere";
  at: URL;
  /** Paths the browser loaded as documents after the click (the dashboard's among them: no client-side navigation). */
  documents: string[];
}

const isDashboardHeading = async (page: Page) =>
  page
    .getByRole("heading", { name: "Dashboard" })
    .isVisible()
    .catch(() => false);

/** Loads the home page, waits until its scripts are done (the app hydrated), clicks the link to `dashboardPath`. */
export async function clickToDashboard(
  page: Page,
  { origin, dashboardPath, basePath }: { origin: string; dashboardPath: string; basePath: string },
): Promise<ClickedThrough> {
  await page.goto(origin, { waitUntil: "networkidle" });
  const documents: string[] = [];
  const onRequest = (request: Request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      documents.push(new URL(request.url()).pathname);
  };
  page.on("request", onRequest);
  await page.locator(`a[href="${dashboardPath}"]`).first().click();
  let landed: ClickedThrough["landed"] = "nowhere";
  const deadline = Date.now() + 15_000;
  while (landed === "nowhere" && Date.now() < deadline) {
    const at = new URL(page.url());
    if (at.pathname.startsWith(`${basePath}/signin`)) {
      await page.waitForLoadState("load");
      landed = "signin";
    } else if (at.pathname === dashboardPath && (await isDashboardHeading(page))) landed = "dashboard";
    else await page.waitForTimeout(100);
  }
  page.off("request", onRequest);
  return { landed, at: new URL(page.url()), documents };
}

/**
 * Signed out, the click lands on sign-in with a callbackUrl back to the dashboard; signed in, on the
 * dashboard. With `clientRouter`, the dashboard must not have been loaded as a document: the check
 * ran in the browser, not in the server's guard of page requests.
 */
export async function expectClickThrough(
  page: Page,
  where: { origin: string; dashboardPath: string; basePath: string },
  { signedIn, clientRouter, output }: { signedIn: boolean; clientRouter: boolean; output: () => string },
) {
  const clicked = await clickToDashboard(page, where);
  const seen = `click on ${where.dashboardPath} (${signedIn ? "signed in" : "signed out"}) -> ${clicked.landed} at ${clicked.at.href}, documents loaded: ${JSON.stringify(clicked.documents)}\n${output()}`;
  expect(clicked.landed, seen).toBe(signedIn ? "dashboard" : "signin");
  if (!signedIn) expect(clicked.at.searchParams.get("callbackUrl"), seen).toContain(where.dashboardPath);
  if (clientRouter) expect(clicked.documents, seen).not.toContain(where.dashboardPath);
  return clicked;
}
