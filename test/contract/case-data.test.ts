// What the cases write: the values a run draws from its nonce must not change which rules a store can break.
import { describe, expect, it } from "vitest";
import { DataFactory } from "../../src/contract/access/data.js";
import { randomFor } from "../../src/contract/access/random.js";

describe("the data a case writes", () => {
  it("an OAuth account's providerAccountId is never digits only, whatever the nonce draws", () => {
    // A draw whose every byte is 0x11: hex of it is all digits. One nonce in about ten thousand draws an id
    // of digits only, and a store that keeps numeric-looking ids as numbers then warned on a case that is
    // not about numeric ids: the verdict would depend on the nonce, not the seed.
    const digitsOnly = () => 0x11 / 256;
    const data = new DataFactory(randomFor(1, "case"), digitsOnly);
    expect(data.account("user").providerAccountId).not.toMatch(/^\d+$/);
  });
});
