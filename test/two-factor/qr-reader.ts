/**
 * Reads the QR codes the generated pages draw, with a decoder that is not
 * ours: jsQR, installed once into .cache/ under a lock (the repository does
 * not carry it), for the layers that may install. The SVG's path is turned
 * back into pixels (each `M x y h n v1 h-n z` a dark run) and decoded.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { userEnv } from "../e2e/user-env.js";
import { root } from "../helpers.js";

const decoder = "jsqr@1.4.0";

type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;

async function jsQr(): Promise<JsQr> {
  const key = createHash("sha256").update(decoder).digest("hex").slice(0, 12);
  const cache = join(root, ".cache");
  const dir = join(cache, `qr-reader-${key}`);
  if (!existsSync(join(dir, ".ready"))) {
    mkdirSync(cache, { recursive: true });
    const { lock } = (await import("proper-lockfile")).default;
    const release = await lock(cache, {
      lockfilePath: join(cache, ".qr-reader.lock"),
      realpath: false,
      stale: 60_000,
      retries: { retries: 300, minTimeout: 500, maxTimeout: 1000 },
    });
    try {
      if (!existsSync(join(dir, ".ready"))) {
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "qr-reader", private: true }));
        await execa("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", decoder], {
          cwd: dir,
          env: userEnv(),
        });
        writeFileSync(join(dir, ".ready"), new Date().toISOString());
      }
    } finally {
      await release();
    }
  }
  const module = await import(pathToFileURL(join(dir, "node_modules/jsqr/dist/jsQR.js")).href);
  return (module.default?.default ?? module.default) as JsQr;
}

/** The text of the QR code an SVG of the generated qr-code.ts draws, as a reader decodes it; null when none. */
export async function readQrSvg(svg: string): Promise<string | null> {
  const side = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const path = /<path d="([^"]*)"/.exec(svg)?.[1] ?? "";
  const scale = 4;
  const width = side * scale;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  for (const [, x, y, run] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g))
    for (let dx = 0; dx < Number(run) * scale; dx++)
      for (let dy = 0; dy < scale; dy++) {
        const at = ((Number(y) * scale + dy) * width + Number(x) * scale + dx) * 4;
        pixels[at] = pixels[at + 1] = pixels[at + 2] = 0;
      }
  return (await jsQr())(pixels, width, width)?.data ?? null;
}
