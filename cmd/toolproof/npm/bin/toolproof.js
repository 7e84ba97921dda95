#!/usr/bin/env node
// The toolproof command on npm: runs the prebuilt binary for this platform, which this package
// carries in bin/PLATFORM-ARCH/ (scripts/build-npm builds them), with the arguments, the standard
// streams and the exit status passed through.
"use strict";
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const key = `${process.platform}-${process.arch}`;
const exe = path.join(__dirname, key, process.platform === "win32" ? "toolproof.exe" : "toolproof");

if (!fs.existsSync(exe)) {
  const have = fs.readdirSync(__dirname, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  process.stderr.write(
    `toolproof: this package has no binary for ${key} (it has ${have.join(", ") || "none"}).\n` +
      "Install toolproof with Go instead: go install github.com/toolproof/toolproof/cmd/toolproof@latest\n",
  );
  process.exit(2);
}
try {
  fs.accessSync(exe, fs.constants.X_OK);
} catch {
  fs.chmodSync(exe, 0o755); // a tarball unpacked without its modes
}
const r = spawnSync(exe, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (r.error) {
  process.stderr.write(`toolproof: cannot run ${exe}: ${r.error.message}\n`);
  process.exit(2);
}
if (r.signal) {
  process.kill(process.pid, r.signal);
}
process.exit(r.status ?? 2);
