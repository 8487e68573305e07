import { closeSync, fchmodSync, mkdirSync, openSync, writeSync } from "node:fs";
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
   * an existing file is replaced. Only its owner may read it: the file is
   * made 0600 and folders it creates 0700 (a trace holds prompts and tool
   * output).
   */
  file(path: string): TraceSink {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    let fd: number | undefined = openSync(path, "w", 0o600);
    try {
      fchmodSync(fd, 0o600); // a file that was already there keeps its mode otherwise
    } catch {
      // Not the owner (or a file system without modes): the file is still written.
    }
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
