import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startRecorder } from "../../proxy/record/server.js";
import { tempDir } from "./support/http.js";

/** The nice value of every thread of this process (Linux: /proc/self/task/TID/stat, field 19). */
function threadNiceValues(): number[] {
  return readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[16]);
  });
}

describe.runIf(process.platform === "linux")("the recording worker's priority", () => {
  it("runs below the proxy's thread, which keeps its own priority", async () => {
    const temp = await tempDir();
    const mine = threadNiceValues()[0];
    const before = threadNiceValues().filter((nice) => nice === 19).length;
    const recorder = await startRecorder({ upstream: "http://127.0.0.1:9", cassette: temp.file("c.yaml") });
    try {
      const during = threadNiceValues();
      expect(during.filter((nice) => nice === 19).length).toBe(before + 1);
      expect(during[0]).toBe(mine);
    } finally {
      await recorder.close();
      await temp.remove();
    }
  });
});
