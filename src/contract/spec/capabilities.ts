/**
 * What an adapter can do, named the way users think of it. §4.2 makes every
 * method optional; a capability is supported when all its methods are there.
 */
import type { AdapterMethod } from "./adapter.js";

export const capabilityNames = ["users", "sessions", "email", "webauthn"] as const;
export type CapabilityName = (typeof capabilityNames)[number];

interface Capability {
  name: CapabilityName;
  title: string;
  /** Methods the service calls for this capability (§3, §5). */
  methods: AdapterMethod[];
}

export const capabilities: Record<CapabilityName, Capability> = {
  users: {
    name: "users",
    title: "Users and account linking",
    methods: ["createUser", "getUser", "getUserByEmail", "getUserByAccount", "updateUser", "linkAccount"],
  },
  sessions: {
    name: "sessions",
    title: "Database sessions",
    methods: ["createSession", "getSessionAndUser", "updateSession", "deleteSession"],
  },
  email: {
    name: "email",
    title: "Email sign-in",
    methods: ["createVerificationToken", "useVerificationToken", "getUserByEmail"],
  },
  webauthn: {
    name: "webauthn",
    title: "WebAuthn",
    methods: [
      "getAccount",
      "createAuthenticator",
      "getAuthenticator",
      "listAuthenticatorsByUserId",
      "updateAuthenticatorCounter",
    ],
  },
};

export interface CapabilityStatus {
  name: CapabilityName;
  title: string;
  supported: boolean;
  missing: AdapterMethod[];
}

/** Which capabilities an adapter with these methods supports. */
export function capabilityStatus(present: ReadonlySet<AdapterMethod>): CapabilityStatus[] {
  return capabilityNames.map((name) => {
    const { title, methods } = capabilities[name];
    const missing = methods.filter((method) => !present.has(method));
    return { name, title, supported: missing.length === 0, missing };
  });
}
