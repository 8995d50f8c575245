import { closeSync, fsyncSync, openSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * How fast the disk under `folder` takes sustained writes: `megabytes` written in 1 MB blocks and
 * flushed with fsync, in MB/s. Recording large bodies writes about as much cassette as it forwards, so
 * this bounds how many such exchanges per second any recorder can keep up with once the page cache is full.
 */
export function diskWriteMBps(folder: string, megabytes = 512): number {
  const file = join(folder, "disk-probe.bin");
  const block = Buffer.alloc(1024 * 1024, 0x61);
  const fd = openSync(file, "w");
  try {
    const started = performance.now();
    for (let i = 0; i < megabytes; i++) writeSync(fd, block);
    fsyncSync(fd);
    return megabytes / ((performance.now() - started) / 1000);
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
}
