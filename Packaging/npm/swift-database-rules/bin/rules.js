#!/usr/bin/env node
// The `rules` command of the npm package swift-database-rules: it runs the native binary of the
// platform package that npm installed beside it (one of its optionalDependencies, the one whose
// `os` and `cpu` fields match this machine), with the same arguments, standard streams and exit
// status. Signals sent to this process (Ctrl-C, a CI job's SIGTERM) are passed on to the binary.
"use strict";

const childProcess = require("child_process");
const os = require("os");
const path = require("path");

const PLATFORM_PACKAGES = {
  "linux x64": "@swift-database-rules/linux-x64",
  "linux arm64": "@swift-database-rules/linux-arm64",
  "darwin arm64": "@swift-database-rules/darwin-arm64",
  "darwin x64": "@swift-database-rules/darwin-x64",
};

function fail(message) {
  process.stderr.write(`rules: ${message}\n`);
  process.exit(1);
}

function binaryPath() {
  // RULES_BINARY_PATH: a binary to run instead (a build of your own, an unpacked release archive).
  if (process.env.RULES_BINARY_PATH) return process.env.RULES_BINARY_PATH;
  const platform = `${process.platform} ${process.arch}`;
  const name = PLATFORM_PACKAGES[platform];
  if (!name) {
    fail(`no build for ${platform} (there are builds for ${Object.keys(PLATFORM_PACKAGES).join(", ")}); build rules from source: https://github.com/swift-database-rules/swift-database-rules`);
  }
  let manifest;
  try {
    manifest = require.resolve(`${name}/package.json`);
  } catch {
    fail(`the package ${name}, which holds the binary for ${platform}, is not installed: install again without --omit=optional or --no-optional (npm install swift-database-rules), or install ${name} itself`);
  }
  return path.join(path.dirname(manifest), "bin", "rules");
}

const binary = binaryPath();
const child = childProcess.spawn(binary, process.argv.slice(2), { stdio: "inherit" });

const forwarded = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2"];
for (const signal of forwarded) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  });
}

child.on("error", (error) => fail(`cannot run ${binary}: ${error.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    // End the same way the binary did, so that the caller sees the signal, not a status.
    for (const name of forwarded) process.removeAllListeners(name);
    process.kill(process.pid, signal);
    // Should the signal not end this process, the shell's convention: 128 + its number.
    setTimeout(() => process.exit(128 + (os.constants.signals[signal] || 0)), 500);
    return;
  }
  process.exit(code);
});
