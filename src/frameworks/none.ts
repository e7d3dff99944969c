/** No framework: the framework-neutral authConfig, for the user to mount. */
import { type FrameworkDefinition, rootLayout } from "./framework.js";

export const none: FrameworkDefinition = {
  title: "no framework",
  dependencies: [],
  devDependencies: [],
  port: 3000,
  basePath: "/api/auth",
  devCommand: "",
  authPackage: "@auth/core",
  configType: "AuthConfig",
  detection: {},
  layout: rootLayout,
  async plan() {},
};
