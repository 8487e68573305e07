/** A streamed answer: the text deltas as they arrive, and the whole text at the end. */
export interface TextStream extends AsyncIterable<string> {
  /** The text deltas, in order (also what iterating the stream itself gives). */
  readonly textStream: AsyncIterable<string>;
  /** The whole answer; rejects with the interaction's error. */
  readonly text: Promise<string>;
}

/**
 * A {@link TextStream} fed by `run`, which receives a callback for each delta
 * and resolves to the final text. Deltas are buffered until read; a failure
 * ends the iteration with that error.
 */
export function textStream(run: (onTextDelta: (delta: string) => void) => Promise<string>): TextStream {
  const buffered: string[] = [];
  let done = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const text = run((delta) => {
    buffered.push(delta);
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
    for (;;) {
      const next = buffered.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (failure) throw failure.error;
      if (done) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  }
  const iterable: AsyncIterable<string> = { [Symbol.asyncIterator]: () => deltas() };
  return { textStream: iterable, text, [Symbol.asyncIterator]: () => deltas() };
}
