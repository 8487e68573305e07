import { ToolControlFlowSignal } from "./tool-control-flow-signal.js";

/** A JSON Schema object, as sent with a request so any responder can validate an answer. */
type JsonSchemaObject = Readonly<Record<string, unknown>>;

/** What a process asks of a person before it can go on; `key` ties the answer to the code that waits for it. */
export type PendingRequest =
  | {
      readonly kind: "approval";
      /** The gate's key of the call (the loop: `<loopId>/<round>.<index>`; a shortcut adds `/<inner tool>`): the call the answer belongs to. */
      readonly key: string;
      readonly toolName: string;
      /** The arguments the tool will get, validated (as JSON, with scalar strings coerced). */
      readonly arguments: unknown;
      /** Digest of the exact JSON arguments: the answer is used only for a call with this tool name and digest. */
      readonly digest?: string;
      /** Set when the request is asked again: what was wrong with the previous answer. */
      readonly problem?: string;
      /** What the person is told. */
      readonly message: string;
      /** The tool's input schema: edited arguments are checked against it. */
      readonly inputSchema: JsonSchemaObject;
      /** Denied with reason "timed out" when nobody answers in time. */
      readonly timeoutMs?: number;
    }
  | {
      readonly kind: "confirmation";
      /** `slot:<n>`: the awaitable's place in the action's run. */
      readonly key: string;
      /** What is to be confirmed (as JSON). */
      readonly payload: unknown;
      readonly message: string;
      readonly timeoutMs?: number;
    }
  | {
      readonly kind: "form";
      /** `slot:<n>`: the awaitable's place in the action's run. */
      readonly key: string;
      readonly title: string;
      /** The form's fields as JSON Schema: submitted values are checked against it. */
      readonly schema: JsonSchemaObject;
      readonly timeoutMs?: number;
      /** Set when the form is asked again: what was wrong with the values submitted. */
      readonly problem?: string;
    };

/**
 * Thrown when code in an agent process must wait for a person (a tool needing
 * approval, `WaitFor.confirmation`, `WaitFor.formSubmission`): the loops it
 * passes through store where they stopped, and the process goes `waiting`
 * with the requests, instead of failing. Tools and decorators let it pass.
 */
export class AwaitingResponse extends ToolControlFlowSignal {
  constructor(readonly requests: readonly PendingRequest[]) {
    super(`Waiting for a response: ${requests.map(describeRequest).join("; ")}`);
    this.name = "AwaitingResponse";
  }

  static override isInstance(error: unknown): error is AwaitingResponse {
    return ToolControlFlowSignal.isInstance(error) && error.name === "AwaitingResponse";
  }
}

/** One line saying what a request asks: `approve refund({"amount":5})`, the confirmation's message, the form's title. */
export function describeRequest(request: PendingRequest): string {
  switch (request.kind) {
    case "approval":
      return `approve ${request.toolName}(${JSON.stringify(request.arguments) ?? ""})`;
    case "confirmation":
      return `confirm: ${request.message}`;
    case "form":
      return `form: ${request.title}`;
  }
}
