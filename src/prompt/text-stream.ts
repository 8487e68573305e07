/** A streamed answer: the text deltas as they arrive, and the whole text at the end. */
export interface TextStream extends AsyncIterable<string> {
  /** The text deltas, in order (also what iterating the stream itself gives). */
  readonly textStream: AsyncIterable<string>;
  /** The whole answer; rejects with the interaction's error. */
  readonly text: Promise<string>;
}

/**
 * A {@link TextStream} fed by `run`, which receives a callback for each delta
 * and resolves to the final text. Deltas are kept until the run ends, so every
 * iteration (of the stream or of `textStream`, any number of times) sees all
 * of them in order; a failure ends each iteration with that error.
 */
export function textStream(run: (onTextDelta: (delta: string) => void) => Promise<string>): TextStream {
  const received: string[] = [];
  let done = false;
  let failure: { error: unknown } | undefined;
  const waiting = new Set<() => void>();
  const notify = () => {
    for (const wake of waiting) wake();
    waiting.clear();
  };
  const text = run((delta) => {
    received.push(delta);
    notify();
  }).then(
    (value) => {
      done = true;
      notify();
      return value;
    },
    (error: unknown) => {
      done = true;
      failure = { error };
      notify();
      throw error;
    },
  );
  // Errors surface through iteration or `text`; an unobserved `text` must not crash the process.
  text.catch(() => {});
  async function* deltas(): AsyncGenerator<string> {
    let next = 0;
    for (;;) {
      if (next < received.length) {
        yield received[next] as string;
        next += 1;
        continue;
      }
      if (failure) throw failure.error;
      if (done) return;
      await new Promise<void>((resolve) => waiting.add(resolve));
    }
  }
  const iterable: AsyncIterable<string> = { [Symbol.asyncIterator]: () => deltas() };
  return { textStream: iterable, text, [Symbol.asyncIterator]: () => deltas() };
}
