/** Checks a person's answer with what only the live process has (a zod schema); the problem, or `undefined` when it fits. */
export type AnswerCheck = (value: unknown) => string | undefined;

const checks = new WeakMap<object, AnswerCheck>();

/**
 * The in-memory checks that travel beside a request (never in its plain JSON):
 * the gate attaches the tool's own parse to an approval request, `WaitFor`
 * the form's zod schema, and the process waiting on the request runs it on an
 * answer before accepting it. A process resumed elsewhere has no such check;
 * the code that resumes validates again and asks again when it must.
 */
export const AnswerChecks = {
  /** Attaches `check` to `request`; returns `request`. */
  attach<T extends object>(request: T, check: AnswerCheck): T {
    checks.set(request, check);
    return request;
  },
  /** The check attached to `request`, if any. */
  of(request: object): AnswerCheck | undefined {
    return checks.get(request);
  },
};
