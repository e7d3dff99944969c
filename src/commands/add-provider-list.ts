/**
 * `add-provider --list [--json]`: every provider name, grouped as users look
 * for them, with the flags each needs and where its values come from.
 */

import { coreVersion } from "../catalog/builtin-providers.data.js";
import {
  type BuiltinProvider,
  builtinProviders,
  byPopularity,
  generatedBuiltins,
} from "../catalog/builtin-providers.js";
import { builtinFlags } from "../families/builtin.js";
import type { KindOption } from "../families/family.js";
import { type KindEntry, kindCatalog, type ProviderKind } from "../families/registry.js";

type Group = { title: string; kinds: ProviderKind[]; builtins: BuiltinProvider[] };

function groups(): Group[] {
  const builtins = byPopularity(generatedBuiltins);
  const ofType = (...types: string[]) => builtins.filter((p) => types.includes(p.type));
  return [
    { title: "OAuth / OpenID Connect providers", kinds: [], builtins: ofType("oauth", "oidc") },
    { title: "Email services", kinds: ["email"], builtins: ofType("email") },
    { title: "Passkey / WebAuthn", kinds: ["webauthn"], builtins: ofType("webauthn") },
    { title: "Credentials", kinds: ["credentials"], builtins: ofType("credentials") },
    {
      title: "Generic OAuth 2.0 / OpenID Connect (any provider, from its URLs)",
      kinds: ["oauth", "oidc"],
      builtins: [],
    },
    { title: "Social", kinds: ["social"], builtins: [] },
  ];
}

const kindEntry = (kind: ProviderKind) => kindCatalog.find((k) => k.kind === kind)!;

function optionLine(option: KindOption): string {
  const extra = [
    option.required ? "required" : "",
    option.fallback !== undefined ? `default ${option.fallback}` : "",
    option.values ? `one of ${option.values.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
  return `      ${option.flag.padEnd(34)} ${option.description}${extra ? ` (${extra})` : ""}`;
}

function kindLines(entry: KindEntry): string[] {
  const aliases = entry.aliases?.length ? ` (alias: ${entry.aliases.join(", ")})` : "";
  return [`  ${entry.kind}${aliases} — ${entry.description}`, ...entry.options.map(optionLine)];
}

function builtinLine(p: BuiltinProvider): string {
  const needs = builtinFlags(p)
    .filter((f) => f.required)
    .map((f) => f.flag);
  return `  ${p.module.padEnd(24)} ${p.name}${needs.length ? ` (needs ${needs.join(" ")})` : ""}`;
}

const servedByKinds = () =>
  builtinProviders
    .filter((p) => p.servedBy)
    .map((p) => p.module)
    .join(", ");

export function describeProviders(): string {
  const lines = [
    `The ${builtinProviders.length} built-in providers of @auth/core ${coreVersion} and create-auth's own kinds`,
    `(${servedByKinds()} are served by the kinds, which generate more than the built-ins).`,
    "Add one with: create-auth add-provider <name>",
    "",
  ];
  for (const group of groups()) {
    lines.push(`${group.title}:`);
    for (const kind of group.kinds) lines.push(...kindLines(kindEntry(kind)));
    lines.push(...group.builtins.map(builtinLine), "");
  }
  return lines.join("\n");
}

const flagJson = (f: KindOption) => ({ flag: f.flag.split(" ")[0], required: f.required, description: f.description });

export function providersJson(): string {
  return `${JSON.stringify(
    {
      source: `@auth/core ${coreVersion}`,
      builtins: builtinProviders.length,
      groups: groups().map((group) => ({
        group: group.title,
        providers: [
          ...group.kinds.map((kind) => {
            const entry = kindEntry(kind);
            return {
              name: entry.kind,
              aliases: entry.aliases ?? [],
              title: entry.title,
              source: "create-auth",
              flags: entry.options.map(flagJson),
            };
          }),
          ...group.builtins.map((p) => ({
            name: p.module,
            id: p.id,
            title: p.name,
            type: p.type,
            source: "@auth/core",
            flags: builtinFlags(p).map(flagJson),
            env: Object.values(p.env),
            console: p.console ?? null,
            docs: p.docs,
          })),
        ],
      })),
    },
    null,
    2,
  )}\n`;
}
