import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startRecorder } from "../../proxy/record/server.js";
import { tempDir } from "./support/http.js";

/**
 * The nice value of every thread of this process (Linux: /proc/self/task/TID/stat, field 19), the main
 * thread's first. The main thread is the one whose id is the process id: the listing is in id order, and
 * once ids wrap around (pid_max) a thread started later can come before it.
 */
function threadNiceValues(): number[] {
  const nice = (tid: string) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[16]);
  };
  const main = String(process.pid);
  const others = readdirSync("/proc/self/task").filter((tid) => tid !== main);
  return [nice(main), ...others.map(nice)];
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
