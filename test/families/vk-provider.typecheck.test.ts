// The generated VK profile schemas type-check (tsc) and parse alike when the project's zod is version 4.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { root } from "../helpers.js";
import { generateInto, importGenerated, makeProject } from "./provider-project.js";
import { full, type ProfileModule } from "./vk-profiles.js";

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
