#!/usr/bin/env node
// The per-file durations of a whole run of the suite, from vitest's JSON report:
//
//   npx vitest run --reporter=json --outputFile=/tmp/suite.json
//   node scripts/test-durations.mjs /tmp/suite.json            the slowest 15 files, a Markdown table
//   node scripts/test-durations.mjs /tmp/suite.json --top 30   the slowest 30
//   node scripts/test-durations.mjs /tmp/suite.json --write    also rewrite test/file-seconds.json
//
// test/file-seconds.json is the order the suite runs its files in (slowest first, see
// test/support/sequencer.ts): rewrite it from a whole run when files are added or their cost moves.
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

const [report, ...rest] = process.argv.slice(2);
if (!report) {
  console.error("usage: node scripts/test-durations.mjs REPORT.json [--top N] [--write]");
  process.exit(2);
}
const topAt = rest.indexOf("--top");
const top = topAt >= 0 ? Number(rest[topAt + 1]) : 15;
if (!Number.isInteger(top) || top < 1) {
  console.error("test-durations: --top takes a whole number of files, for example --top 15");
  process.exit(2);
}
const root = join(import.meta.dirname, "..");
const parsed = JSON.parse(readFileSync(report, "utf8"));
const files = parsed.testResults
  .map((file) => ({
    path: relative(root, file.name),
    seconds: Math.round((file.endTime - file.startTime) / 100) / 10,
    tests: file.assertionResults.length,
  }))
  .sort((a, b) => b.seconds - a.seconds || a.path.localeCompare(b.path));
const wall = Math.round(
  (Math.max(...files.map((_, i) => parsed.testResults[i].endTime)) - parsed.startTime) / 1000,
);
const sum = Math.round(files.reduce((total, file) => total + file.seconds, 0));
console.log(
  `${parsed.numTotalTests} tests (${parsed.numPassedTests} passed, ${parsed.numFailedTests} failed) in ${files.length} files; ${wall} s from start to the last file's end; ${sum} s of file durations\n`,
);
console.log("| file | s | tests |\n| --- | --- | --- |");
for (const file of files.slice(0, top))
  console.log(`| \`${file.path}\` | ${file.seconds.toFixed(1)} | ${file.tests} |`);
if (rest.includes("--write")) {
  const table = Object.fromEntries(files.map((file) => [file.path, file.seconds]));
  writeFileSync(join(root, "test", "file-seconds.json"), `${JSON.stringify(table, null, 2)}\n`);
  console.log(`\nwrote test/file-seconds.json (${files.length} files)`);
}
