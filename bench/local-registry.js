// A registry in front of the real one, for bench/first-run.js: it publishes one packed tarball (its package.json's
// name and version, as `npm publish` would) and passes every other request on to the registry npm is configured
// with. npx then installs the package the way it installs any published one: the manifest from the packument,
// the tarball fetched and unpacked once. (Given a tarball's path instead, npm unpacks it to read its manifest,
// twice, before installing it: time a user fetching from a registry never spends.)
// Usage: node bench/local-registry.js <tarball> <upstream registry>   (prints the URL, serves until killed)
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { basename } from "node:path";
import { gunzipSync } from "node:zlib";

const [tarballPath, upstreamArg] = process.argv.slice(2);
const upstream = upstreamArg.endsWith("/") ? upstreamArg : `${upstreamArg}/`;
const tarball = readFileSync(tarballPath);

/** package/package.json from the (uncompressed) tar: 512-byte headers, each followed by its file's blocks. */
function packageJsonOf(tar) {
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const name = tar.toString("utf8", offset, offset + 100).replace(/\0.*$/s, "");
    const size = Number.parseInt(
      tar
        .toString("utf8", offset + 124, offset + 136)
        .replace(/\0.*$/s, "")
        .trim(),
      8,
    );
    if (!name) break;
    if (name === "package/package.json") return JSON.parse(tar.toString("utf8", offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`${tarballPath} holds no package/package.json`);
}

const manifest = packageJsonOf(gunzipSync(tarball));
const file = basename(tarballPath);

const server = createServer(async (req, res) => {
  const base = `http://127.0.0.1:${server.address().port}/`;
  const path = decodeURIComponent(req.url.slice(1).split("?")[0]);
  if (path === manifest.name) {
    const version = {
      ...manifest,
      _id: `${manifest.name}@${manifest.version}`,
      dist: {
        tarball: `${base}${manifest.name}/-/${file}`,
        integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
        shasum: createHash("sha1").update(tarball).digest("hex"),
      },
    };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        name: manifest.name,
        "dist-tags": { latest: manifest.version },
        versions: { [manifest.version]: version },
      }),
    );
    return;
  }
  if (path === `${manifest.name}/-/${file}`) {
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": tarball.length });
    res.end(tarball);
    return;
  }
  try {
    const answer = await fetch(upstream + req.url.slice(1), {
      headers: { accept: req.headers.accept ?? "*/*" },
    });
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/octet-stream" });
    res.end(Buffer.from(await answer.arrayBuffer()));
  } catch (error) {
    res.writeHead(502);
    res.end(String(error));
  }
});

server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}/`));
