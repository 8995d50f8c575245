import { spawn } from "node:child_process";

export interface Measured {
  wallMs: number;
  maxRssKb: number;
  exitCode: number;
  stdout: string;
}

/** Runs a command to completion and reads the `MEASURED {…}` line that bench/systems/measured.ts prints. */
export function runMeasured(command: string, args: string[]): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.once("exit", () => {
      const line = /MEASURED (\{.*\})/.exec(stderr);
      if (!line?.[1])
        return reject(new Error(`no measurement from ${args.join(" ")}:\n${stderr.slice(-1500)}`));
      resolve({ ...(JSON.parse(line[1]) as Omit<Measured, "stdout">), stdout });
    });
  });
}
