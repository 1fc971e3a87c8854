/** What a {@link HostcallStream} needs from its bridge. */
export interface HostcallStreamLink {
  /** Ask the host for `count` more chunks (`Infinity`: flowing). */
  pull(count: number): void;
  /** Ask the host to cancel the stream (`cancelStream(callId)`). */
  cancel(): void;
  /** The stream will take no more outcomes (final chunk, error, sequence error): forget the call. */
  settled(): void;
  /** How many chunks a demand-driven subscriber keeps asked for (the call's `buffer_size`). */
  readonly prefetch: number;
}
