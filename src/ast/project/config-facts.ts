/**
 * What an auth config says, as read-config.ts and read-providers.ts read it
 * with the parser: the shapes doctor's facts (src/doctor-model/) hold as
 * ProjectFacts.config.
 */
import type { BuiltinType } from "../../catalog/builtin-provider-types.js";

export interface ProviderEnv {
  role: "id" | "secret" | "issuer" | "key";
  /** The variable it is read from, when it is read from one. */
  name?: string;
  /** Written in the code as a literal: the value itself, or the fallback after `process.env.X ||`. */
  literal?: string;
}

export interface ProviderFacts {
  id: string;
  type: BuiltinType | "unknown";
  /** The @auth/core provider module it comes from ("github"), when it is a built-in. */
  builtin?: string;
  /** The variables it needs: the ones the config passes, else the ones @auth/core reads. */
  env: ProviderEnv[];
  /** Where it is configured, relative to the project. */
  file: string;
}

export interface AdapterFacts {
  /** The module the adapter comes from as written ("@auth/prisma-adapter", "./auth/adapter"). */
  module?: string;
  /** A local adapter module's text, to look for the methods a provider needs. */
  text?: string;
  file?: string;
  /** How many arguments the config passes to the adapter's factory, when it calls it itself (`DrizzleAdapter(db)`: 1). */
  arguments?: number;
}

export interface ConfigFacts {
  /** Relative to the project. */
  file: string;
  syntaxError?: string;
  /** The config object with `providers` was found. */
  found: boolean;
  basePath?: string;
  /** `trustHost: true` (or any expression that is not `false`). */
  trustHost: boolean;
  /** `secret: process.env.X`: X; a literal is `literalSecret`. */
  secretVariable?: string;
  literalSecret: boolean;
  strategy?: string;
  enableWebAuthn: boolean;
  adapter?: AdapterFacts;
  providers: ProviderFacts[];
  /** Packages the config imports, directly or through its own modules. */
  packages: string[];
}
