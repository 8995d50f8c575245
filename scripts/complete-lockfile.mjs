#!/usr/bin/env node
// The npm registry reachable here serves platform-specific packages (@biomejs/cli-*, @rollup/rollup-*,
// @esbuild/*) only for this machine's platform, so `npm install` leaves the other platforms out of
// package-lock.json, and `npm ci` then refuses the lock as out of sync. This script adds the missing
// optional entries, tagged with the platform their name states, so `npm ci` skips them as it would on a
// full registry. Run it after every `npm install`: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from "node:fs";

const OS = [
  "android",
  "darwin",
  "freebsd",
  "linux",
  "win32",
  "aix",
  "netbsd",
  "openbsd",
  "sunos",
  "openharmony",
  "cygwin",
];
const CPU = [
  "arm64",
  "x64",
  "ia32",
  "arm",
  "ppc64",
  "riscv64",
  "s390x",
  "loong64",
  "mips64el",
  "wasm32",
  "loongarch64",
];

function platformOf(name) {
  const base = name.split("/").pop();
  const parts = base.split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p)) ?? (base.includes("ppc64") ? "ppc64" : undefined);
  const entry = {};
  if (os) entry.os = [os];
  else if (base.includes("wasm")) entry.cpu = ["wasm32"];
  if (cpu && !entry.cpu) entry.cpu = [cpu];
  if (base.includes("musl")) entry.libc = ["musl"];
  else if (os === "linux" && base.includes("gnu")) entry.libc = ["glibc"];
  return entry;
}

const file = process.argv[2] ?? "package-lock.json";
const lock = JSON.parse(readFileSync(file, "utf8"));
let added = 0;
for (const [path, pkg] of Object.entries(lock.packages)) {
  for (const [dep, range] of Object.entries(pkg.optionalDependencies ?? {})) {
    const parent = path === "" ? "" : `${path}/`;
    const nested = `${parent}node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (lock.packages[nested] || lock.packages[hoisted]) continue;
    const version = String(range).replace(/^[\^~=]/, "");
    lock.packages[hoisted] = {
      version,
      ...(pkg.dev ? { dev: true } : {}),
      optional: true,
      ...platformOf(dep),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional platform entries to ${file}`);
