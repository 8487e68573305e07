/** A copy of `array` twice as long (the planner's typed arrays grow by doubling). */
export function doubled<T extends Int32Array | Float64Array | Uint8Array>(array: T): T {
  const next = new (array.constructor as new (length: number) => T)(2 * array.length);
  next.set(array);
  return next;
}
