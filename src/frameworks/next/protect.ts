/**
 * --protect beside a middleware.ts or proxy.ts of the project's own: the
 * generated auth/protect.ts (protect(), sign-in first on the protected
 * paths) and their file edited to export protect(theirs), the edit of
 * middleware-edit.ts; or, where that edit is not certain, their file left
 * alone and the exact lines to add.
 */
import { posix } from "node:path";
import { specifier } from "../../render/modules.js";
import { renderTemplate } from "../../render/templates.js";
import type { FrameworkPart, FrameworkRequest, OwnFile } from "../framework.js";
import { pathPattern } from "../web-standard.js";
import { configModule } from "./config-module.js";

export async function ownMiddlewareEdit(
  wiring: FrameworkPart,
  own: OwnFile,
  request: FrameworkRequest<unknown> & { protect: string[] },
): Promise<void> {
  const kind = posix.basename(own.path).replace(/\.[^.]+$/, "") === "proxy" ? "proxy" : "middleware";
  const protectPath = `${request.authDir}/protect.ts`;
  wiring.files.push({
    path: protectPath,
    contents: await renderTemplate("frameworks/next/protect.ts.hbs", {
      configModule: configModule(protectPath, request),
      kind,
      middlewarePath: own.path,
      protect: request.protect.map(pathPattern),
      protectList: request.protect.join(","),
    }),
  });
  // Both import the auth config init writes: with a config of the project's own, init drops them and says this.
  const paths = request.protect.join(", ");
  wiring.instructions[protectPath] =
    `protect(), sending visitors who are not signed in to sign in on ${paths} (auth() of ${request.configPath}), for ${own.path}`;
  wiring.instructions[own.path] =
    `wrap your ${kind} with auth() of ${request.configPath} to protect ${paths} (https://authjs.dev/getting-started/session-management/protecting)`;
  const { composeMiddleware } = await import("./middleware-edit.js");
  const protectModule = specifier(own.path, protectPath, request.importExtension);
  const ownName = kind === "proxy" ? "appProxy" : "appMiddleware";
  const edit = composeMiddleware(
    own.text,
    {
      exportName: kind,
      protectModule,
      authModules: [configModule(own.path, request), "next-auth"],
      protect: request.protect,
      nodeRuntime: kind === "middleware",
      ownName,
    },
    own.path,
  );
  if (edit.status === "edited") wiring.edits.push({ path: own.path, contents: edit.text });
  if (edit.status !== "refused") {
    wiring.steps.push(
      `${own.path} sends visitors who are not signed in to the sign-in page on: ${paths}; your ${kind} runs where its matcher sent it before`,
    );
    return;
  }
  const lines = [
    `import { protect } from "${protectModule}";`,
    `export default protect(${ownName}); // your ${kind}, renamed; with a matcher of yours: protect(${ownName}, [<your matcher as regular expressions>])`,
    `config.matcher: your paths and ${request.protect.map((p) => JSON.stringify(p)).join(", ")}${kind === "middleware" ? '; config.runtime: "nodejs"' : ""}`,
  ];
  wiring.steps.push(
    `${own.path} was left alone (${edit.reason}); to protect ${request.protect.join(", ")}, in it:\n    ${lines.join("\n    ")}`,
  );
}
