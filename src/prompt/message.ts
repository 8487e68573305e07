/** A message the user sent in a conversation. */
export interface UserMessage {
  readonly role: "user";
  readonly content: string;
}

/** A message the assistant (the model) sent in a conversation. */
export interface AssistantMessage {
  readonly role: "assistant";
  readonly content: string;
}

/** One turn of a conversation passed to `PromptRunner.respond`. */
export type Message = UserMessage | AssistantMessage;

/** Factories for {@link Message}s. */
export const Message = {
  /** A user message. */
  user(content: string): UserMessage {
    return Object.freeze({ role: "user", content });
  },
  /** An assistant message. */
  assistant(content: string): AssistantMessage {
    return Object.freeze({ role: "assistant", content });
  },
};
