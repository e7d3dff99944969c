/** The shape of the catalog part derived from @auth/core (scripts/builtin-providers.ts writes it). */

export const providerTypes = ["oauth", "oidc", "email", "webauthn", "credentials"] as const;
export type BuiltinType = (typeof providerTypes)[number];

export interface DerivedProvider {
  /** The file under @auth/core/providers/ and every framework's providers/ subpath ("ory-hydra"). */
  module: string;
  /** The provider's id: its callback path segment and the root of its env names ("hydra"). */
  id: string;
  name: string;
  type: BuiltinType;
  /** No usable endpoint without an issuer: Auth.js builds them from it or discovers them there. */
  issuerRequired: boolean;
  /** Endpoints still unresolved with an issuer: the provider needs other options of its own. */
  needsOwnOptions: boolean;
  /** The callback checks Auth.js applies when the user sets none. */
  checks: string[];
  /** The variables setEnvDefaults reads for this provider. */
  env: { id?: string; secret?: string; issuer?: string; key?: string };
}

/** setEnvDefaults (@auth/core lib/utils/env.js): `AUTH_${id.toUpperCase().replace(/-/g, "_")}_…`. */
export const envRoot = (id: string) => `AUTH_${id.toUpperCase().replace(/-/g, "_")}`;
