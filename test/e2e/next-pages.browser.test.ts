/**
 * Next.js with the Pages Router only, as its users have it
 * (fixtures/apps/next-pages): init writes app/api/auth/[...nextauth]/route.ts
 * (next-auth 5 serves its endpoints from the App Router), proxy.ts for
 * /dashboard and transpilePackages in next.config; the dashboard page then
 * reads the session with auth(ctx) in getServerSideProps, as the docs show;
 * next build, next start, and Chromium signs in by password and by email link.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "vitest";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

/** The user's own page after init: the session read on the server for this request. */
const dashboard = `import type { GetServerSideProps } from "next";
import { auth } from "@/auth";

export const getServerSideProps: GetServerSideProps<{ email: string | null }> = async (ctx) => {
  const session = await auth(ctx);
  return { props: { email: session?.user?.email ?? null } };
};

export default function Dashboard({ email }: { email: string | null }) {
  return (
    <main>
      <h1>Dashboard</h1>
      <p>Signed in as {email}</p>
    </main>
  );
}
`;

describe("Next.js Pages Router", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("init --yes --protect, a page reading auth(ctx), next build, next start, then sign-in and sign-out in Chromium", async () => {
    const timings = await signInFlow(
      {
        app: "next-pages",
        clientRouter: true,
        basePath: "/api/auth",
        afterInit: (dir) => writeFileSync(join(dir, "pages/dashboard.tsx"), dashboard),
        dashboardShowsUser: true,
      },
      { ...tools, defer },
    );
    console.log(`[next-pages] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
