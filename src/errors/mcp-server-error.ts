import { EmbabelError, isNamedError } from "./embabel-error.js";

/**
 * An MCP server could not be reached, started, listed or called: the message
 * names the server and the cause (a missing command, a crash, a timeout).
 */
export class McpServerError extends EmbabelError {
  /** The name of the server, as configured. */
  readonly server: string;

  constructor(server: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "McpServerError";
    this.server = server;
  }

  static override isInstance(error: unknown): error is McpServerError {
    return isNamedError(error, "McpServerError");
  }
}
