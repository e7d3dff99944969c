/**
 * The generated VK provider (§2.8, §5.6, §9): its profile schema against §2.8
 * and VK's real data, its mapping and its users.get error handling. The full
 * sign-in through Auth.js against a fake VK on loopback is test/families/vk-sign-in.test.ts;
 * the schemas' types under zod 4: vk-provider.typecheck.test.ts.
 */
import type { AuthConfig } from "@auth/core";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { generateInto, importGenerated, makeProject } from "./provider-project.js";
import { full, type ProfileModule, realistic } from "./vk-profiles.js";

describe("the generated VK provider", () => {
  let dir: string;
  let profiles: ProfileModule;
  let vk: AuthConfig["providers"][number];

  beforeAll(async () => {
    dir = makeProject();
    await generateInto(dir, "social", { apiVersion: "5.131" });
    profiles = await importGenerated<ProfileModule>(dir, "providers/vk-profile.ts");
    // The module reads its client credentials from the environment when it loads.
    vi.stubEnv("AUTH_VK_ID", "51234567");
    vi.stubEnv("AUTH_VK_SECRET", "vk-secret");
    vk = (await importGenerated<{ vk: typeof vk }>(dir, "providers/vk.ts")).vk;
    vi.unstubAllEnvs();
  });
  afterEach(() => vi.unstubAllGlobals());

  const failsAt = (profile: unknown) => {
    const result = profiles.vkProfileSchema.safeParse(profile);
    expect(result.success).toBe(false);
    return result.error!.issues[0]!.path.join(".");
  };

  it("parses a realistic users.get profile and a profile with every nested object (§2.8)", () => {
    expect(profiles.vkProfileSchema.safeParse(realistic).success).toBe(true);
    const parsed = profiles.vkProfileSchema.parse(full);
    expect(parsed).toEqual(full);
    // deactivated "" is an active account: its required fields are kept, not dropped.
    expect(profiles.parseVkProfile(full)).toEqual(full);
  });

  it("accepts VK's real shapes beside §2.8's: arrays for career, military and universities, a boolean is_no_index", () => {
    const real = {
      ...realistic,
      career: [full.career, { company: "Other", from: 2021 }],
      military: [full.military],
      universities: [full.universities, { id: 2, name: "UCLA" }],
      is_no_index: true,
    };
    expect(profiles.vkProfileSchema.parse(real)).toEqual(real);
    expect(profiles.parseVkProfile(real)).toEqual(real);
    expect(profiles.vkProfileSchema.parse({ ...realistic, is_no_index: 0 }).is_no_index).toBe(0);
  });

  it("accepts a deleted or banned account: id, names and deactivated, no photo", () => {
    for (const deactivated of ["deleted", "banned"]) {
      const gone = { id: 42, first_name: "DELETED", last_name: "", deactivated };
      expect(profiles.vkProfileSchema.safeParse(gone).success).toBe(true);
      expect(profiles.parseVkProfile(gone)).toEqual(gone);
      expect(profiles.mapVkProfile(profiles.parseVkProfile(gone))).toEqual({
        id: "42",
        name: "DELETED",
        email: null,
        image: null,
      });
    }
    // A banned account that still has its photo keeps it.
    const banned = {
      id: 43,
      first_name: "B",
      last_name: "C",
      deactivated: "banned",
      photo_100: "https://vk.example/b.jpg",
    };
    expect(profiles.parseVkProfile(banned)).toEqual(banned);
    expect(profiles.mapVkProfile(profiles.parseVkProfile(banned)).image).toBe(banned.photo_100);
  });

  it("parseVkProfile checks the required fields", () => {
    const { is_closed: _, ...withoutIsClosed } = realistic;
    expect(() => profiles.parseVkProfile(withoutIsClosed)).toThrow(/is_closed/);
    expect(() => profiles.parseVkProfile({ ...realistic, photo_100: undefined })).toThrow(/photo_100/);
    expect(() => profiles.parseVkProfile({ ...realistic, id: "210700286" })).toThrow(/id/);
    expect(() => profiles.parseVkProfile({ id: 1, first_name: "A", deactivated: "deleted" })).toThrow(/last_name/);
    expect(() => profiles.parseVkProfile("not a profile")).toThrow();
  });

  it("parseVkProfile never fails over an optional field: it is left out and logged once", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const odd = {
        ...realistic,
        sex: 3,
        city: { id: 1 },
        contacts: { mobile_phone: 79991234567 },
        last_seen: { platform: 8 },
        bdate: "21.9",
      };
      const parsed = profiles.parseVkProfile(odd);
      expect(parsed).toEqual({ ...realistic, bdate: "21.9" });
      expect(profiles.parseVkProfile(odd)).toEqual(parsed);
      const logged = warn.mock.calls.map((c) => String(c[0]));
      for (const key of ["sex", "city", "contacts", "last_seen"])
        expect(
          logged.filter((l) => l.includes(`"${key}"`)),
          key,
        ).toHaveLength(1);
      expect(logged).toHaveLength(4);
      // The warning names the field and its kind, never the user's value.
      expect(logged.join("\n")).not.toContain("79991234567");
    } finally {
      warn.mockRestore();
    }
  });

  it("the strict vkProfileSchema refuses what breaks the field shapes", () => {
    const { is_closed: _, ...withoutIsClosed } = realistic;
    expect(failsAt(withoutIsClosed)).toBe("is_closed");
    expect(failsAt({ ...realistic, sex: 3 })).toBe("sex");
    expect(failsAt({ ...realistic, city: { id: 1 } })).toBe("city.title");
    expect(failsAt({ ...realistic, id: "210700286" })).toBe("id");
    expect(failsAt({ ...realistic, online: 2 })).toBe("online");
    expect(failsAt({ ...realistic, wall_default: "friends" })).toBe("wall_default");
    expect(failsAt({ ...realistic, last_seen: { platform: 8 } })).toBe("last_seen.platform");
    expect(failsAt({ ...realistic, personal: { political: 0 } })).toBe("personal.political");
    expect(failsAt({ ...realistic, military: { country_id: 1, unit: "x" } })).toBe("military");
    expect(failsAt({ ...realistic, relatives: [{ type: "cousin" }] })).toBe("relatives.0.type");
    expect(failsAt({ ...realistic, crop_photo: { photo: { ...full.crop_photo.photo, has_tags: undefined } } })).toBe(
      "crop_photo.photo.has_tags",
    );
    expect(
      failsAt({ ...realistic, crop_photo: { photo: { ...full.crop_photo.photo, sizes: [{ type: "big" }] } } }),
    ).toBe("crop_photo.photo.sizes.0.type");
  });

  it("maps the profile to the user with the id as a string", () => {
    expect(profiles.mapVkProfile(realistic)).toEqual({
      id: "210700286",
      name: "Lindsey Stirling",
      email: null,
      image: realistic.photo_100,
    });
    expect(profiles.mapVkProfile({ ...realistic, email: "l@example.com" }).email).toBe("l@example.com");
  });

  it("reports a users.get error instead of signing in with nothing", async () => {
    vi.stubGlobal("fetch", async () =>
      Response.json({ error: { error_code: 5, error_msg: "User authorization failed" } }),
    );
    const provider = vk as unknown as { userinfo: { url: string; request(p: unknown): Promise<unknown> } };
    await expect(provider.userinfo.request({ tokens: { access_token: "x" }, provider })).rejects.toThrow(
      "VK users.get failed: User authorization failed",
    );
  });
});
