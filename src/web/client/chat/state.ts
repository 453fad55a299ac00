// The chat model both chat UIs share: the AI SDK's AbstractChat (sending, streaming, approvals, resume) over a plain
// state that tells the view when something changed, at most once per animation frame.
import { AbstractChat, type ChatInit, type ChatState, type ChatStatus, type UIMessage } from "ai";

class ObservedState implements ChatState<UIMessage> {
  status: ChatStatus = "ready";
  error: Error | undefined = undefined;
  private frame = 0;

  private list: UIMessage[];
  private readonly onChange: () => void;

  constructor(list: UIMessage[], onChange: () => void) {
    this.list = list;
    this.onChange = onChange;
  }

  get messages(): UIMessage[] {
    return this.list;
  }

  set messages(messages: UIMessage[]) {
    this.list = [...messages];
    this.changed();
  }

  // AbstractChat hands over the message it keeps writing into while the answer streams: store a copy, so a message
  // in the list never changes after the view has drawn it.
  pushMessage = (message: UIMessage): void => {
    this.list = [...this.list, this.snapshot(message)];
    this.changed();
  };

  popMessage = (): void => {
    this.list = this.list.slice(0, -1);
    this.changed();
  };

  replaceMessage = (index: number, message: UIMessage): void => {
    const copy = this.snapshot(message);
    this.list = this.list.map((old, i) => (i === index ? copy : old));
    this.changed();
  };

  /** Messages are replaced, never mutated in place, so the view can compare them by identity. */
  snapshot = <T>(thing: T): T => structuredClone(thing);

  /** Status and error are set directly by AbstractChat; it calls this through `ObservedChat.setStatus`. */
  changed(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.onChange();
    });
  }
}

/** An AbstractChat whose view re-renders through `onChange` after every change of messages, status or error. */
export class ObservedChat extends AbstractChat<UIMessage> {
  private readonly observed: ObservedState;

  constructor(init: ChatInit<UIMessage>, onChange: () => void) {
    const state = new ObservedState(init.messages ?? [], onChange);
    super({ ...init, state });
    this.observed = state;
  }

  protected override setStatus(update: { status: ChatStatus; error?: Error }): void {
    super.setStatus(update);
    this.observed.changed();
  }
}
