import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** Where a {@link TraceRecorder} writes its lines (one JSON text each, without the newline). */
export interface TraceSink {
  /** Writes one line. */
  write(line: string): void;
  /** Releases the sink (closes the file). */
  close?(): void;
}

/** Making sinks. */
export const TraceSink = {
  /**
   * A file written line by line with synchronous writes, so a crash keeps
   * every event recorded before it; the folder is created when missing and
   * an existing file is replaced.
   */
  file(path: string): TraceSink {
    mkdirSync(dirname(path), { recursive: true });
    let fd: number | undefined = openSync(path, "w");
    return {
      write(line) {
        if (fd !== undefined) writeSync(fd, `${line}\n`);
      },
      close() {
        if (fd !== undefined) closeSync(fd);
        fd = undefined;
      },
    };
  },
  /** Calls `write` with each line (a terminal, a socket, a test's array). */
  lines(write: (line: string) => void): TraceSink {
    return { write };
  },
  /** Writes every line to each of `sinks`. */
  all(...sinks: readonly TraceSink[]): TraceSink {
    return {
      write: (line) => {
        for (const sink of sinks) sink.write(line);
      },
      close: () => {
        for (const sink of sinks) sink.close?.();
      },
    };
  },
};
