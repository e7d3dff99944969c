/**
 * The generated VK provider (§2.8, §5.6, §9): its profile schema against §2.8
 * and VK's real data, its mapping and its users.get error handling. The full
 * sign-in through Auth.js against a fake VK on loopback is test/e2e/vk.test.ts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AuthConfig } from "@auth/core";
import { execa } from "execa";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { root } from "../helpers.js";
import { generateInto, importGenerated, makeProject } from "./provider-project.js";

interface ZodLike {
  safeParse(value: unknown): { success: boolean; error?: { issues: { path: (string | number)[] }[] } };
  parse(value: unknown): Record<string, unknown>;
}
interface ProfileModule {
  vkProfileSchema: ZodLike;
  parseVkProfile(raw: unknown): Record<string, unknown>;
  mapVkProfile(profile: unknown): { id: string; name: string; email: string | null; image: string | null };
}

/** What users.get?fields=photo_100 returns for a typical account. */
const realistic = {
  id: 210700286,
  first_name: "Lindsey",
  last_name: "Stirling",
  can_access_closed: true,
  is_closed: false,
  photo_100: "https://sun1-99.userapi.com/s/v1/ig2/abc.jpg?size=100x100&quality=96&crop=0,0,400,400&ava=1",
};

const full = {
  ...realistic,
  about: "",
  activities: "",
  bdate: "21.9.1986",
  books: "",
  deactivated: "",
  domain: "lindseystirling",
  email: "l@example.com",
  first_name_abl: "Lindsey",
  first_name_acc: "Lindsey",
  first_name_dat: "Lindsey",
  first_name_gen: "Lindsey",
  first_name_ins: "Lindsey",
  first_name_nom: "Lindsey",
  last_name_abl: "Stirling",
  last_name_acc: "Stirling",
  last_name_dat: "Stirling",
  last_name_gen: "Stirling",
  last_name_ins: "Stirling",
  last_name_nom: "Stirling",
  games: "",
  home_town: "Santa Ana",
  interests: "violin",
  maiden_name: "",
  movies: "",
  music: "",
  nickname: "",
  photo_200: "p",
  photo_200_orig: "p",
  photo_400: "p",
  photo_400_orig: "p",
  photo_50: "p",
  photo_id: "210700286_457239017",
  photo_max: "p",
  photo_max_orig: "p",
  quotes: "",
  screen_name: "lindseystirling",
  site: "https://lindseystirling.com",
  status: "",
  tv: "",
  common_count: 0,
  followers_count: 1000,
  online_app: 0,
  timezone: -7,
  blacklisted: 0,
  blacklisted_by_me: 0,
  can_post: 1,
  can_see_all_posts: 1,
  can_see_audio: 1,
  can_send_friend_request: 1,
  can_write_private_message: 0,
  has_mobile: 1,
  has_photo: 1,
  is_favorite: 0,
  is_friend: 0,
  is_hidden_from_feed: 0,
  is_no_index: 1,
  online: 0,
  online_mobile: 0,
  trending: 0,
  verified: 1,
  friend_status: 3,
  sex: 1,
  relation: 8,
  wall_default: "owner",
  career: {
    city_id: 1,
    country_id: 9,
    from: 2007,
    group_id: 1,
    until: 2020,
    city_name: "LA",
    company: "Self",
    position: "Violinist",
  },
  city: { id: 5331, title: "Los Angeles" },
  country: { id: 9, title: "USA" },
  connections: { facebook: "f", instagram: "i", livejournal: "l", skype: "s", twitter: "t" },
  contacts: { home_phone: "", mobile_phone: "" },
  counters: {
    albums: 1,
    audios: 2,
    followers: 3,
    friends: 4,
    groups: 5,
    mutual_friends: 6,
    notes: 7,
    online_friends: 8,
    pages: 9,
    photos: 10,
    user_videos: 11,
    videos: 12,
  },
  crop_photo: {
    crop: { x: 0, x2: 100, y: 0, y2: 100 },
    rect: { x: 1, x2: 99, y: 1, y2: 99 },
    photo: {
      album_id: -6,
      date: 1600000000,
      id: 457239017,
      owner_id: 210700286,
      has_tags: false,
      access_key: "k",
      photo_256: "p",
      place: "",
      text: "",
      height: 400,
      lat: 34.05,
      long: -118.24,
      post_id: 1,
      user_id: 100,
      width: 400,
      can_comment: 1,
      images: [{ height: 75, width: 75, url: "u", type: "s" }],
      sizes: [
        { height: 75, width: 75, src: "u", url: "u", type: "temp" },
        { height: 0, width: 0, url: "u", type: "max" },
      ],
    },
  },
  education: { faculty: 1, graduation: 2010, university: 2, faculty_name: "Music", university_name: "BYU" },
  exports: { facebook: 0, instagram: 1, livejournal: 0, twitter: 1 },
  last_seen: { platform: 7, time: 1700000000 },
  military: { country_id: 9, unit: "none", unit_id: 0, from: 2000, until: 2001 },
  occupation: { id: 1, name: "BYU", type: "university" },
  personal: {
    alcohol: 1,
    smoking: 1,
    life_main: 8,
    people_main: 6,
    political: 9,
    inspired_by: "music",
    religion: "",
    langs: ["English"],
  },
  relation_partner: {
    id: 1,
    first_name: "A",
    last_name: "B",
    can_access_closed: true,
    deactivated: "",
    hidden: 0,
    is_closed: false,
  },
  relatives: [{ id: 2, name: "C", type: "sibling" }],
  schools: [
    {
      city: 1,
      country: 9,
      type: 1,
      year_from: 1998,
      year_graduated: 2004,
      year_to: 2004,
      class: "a",
      name: "School",
      speciality: "",
      type_str: "",
      id: "1",
    },
  ],
  status_audio: {
    artist: "Lindsey Stirling",
    duration: 200,
    id: 1,
    owner_id: 210700286,
    title: "Crystallize",
    access_key: "k",
    performer: "",
    url: "u",
    album_id: 1,
    date: 1,
    genre_id: 1,
  },
  universities: {
    chair: 1,
    city: 1,
    country: 9,
    faculty: 1,
    graduation: 2010,
    id: 1,
    university_group_id: 1,
    chair_name: "",
    education_form: "",
    education_status: "",
    faculty_name: "",
    name: "BYU",
  },
};

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

describe("the generated VK profile schemas under zod 4", () => {
  // add-provider keeps a zod the project already has, and projects move to zod 4.
  it("type-check and parse alike when the project's zod is version 4", async () => {
    const dir = makeProject("create-auth-zod4-");
    await generateInto(dir, "social", {}, {}, "classic");
    await generateInto(dir, "social", { flow: "vkid" }, {}, "vkid");
    for (const path of ["classic/providers/vk-profile.ts", "vkid/providers/vk-profile.ts"]) {
      const file = join(dir, path);
      writeFileSync(file, readFileSync(file, "utf8").replace('from "zod";', 'from "zod/v4";'));
      expect(readFileSync(file, "utf8")).toContain('from "zod/v4"');
    }
    const tsc = await execa(join(root, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], { cwd: dir, reject: false });
    expect(tsc.stdout + tsc.stderr).toBe("");

    const classic = await importGenerated<ProfileModule>(dir, "classic/providers/vk-profile.ts");
    expect(classic.parseVkProfile(full)).toEqual(full);
    expect(classic.vkProfileSchema.safeParse({ id: 1, first_name: "A", last_name: "B" }).success).toBe(false);
    expect(
      classic.vkProfileSchema.safeParse({ id: 1, first_name: "A", last_name: "B", deactivated: "deleted" }).success,
    ).toBe(true);
    const vkid = await importGenerated<{ parseVkIdUser(raw: unknown): unknown }>(dir, "vkid/providers/vk-profile.ts");
    expect(vkid.parseVkIdUser({ user_id: 5, first_name: "A", avatar: "a" })).toEqual({
      user_id: "5",
      first_name: "A",
      avatar: "a",
    });
  }, 60_000);
});
