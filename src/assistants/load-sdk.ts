// The main thread's AI SDK code (src/assistants/sdk.ts), imported with the first chat request and then reused: a
// repeated import() of a module already loaded still costs ~20 µs in Node's loader, several times a turn.
let loaded: Promise<typeof import("./sdk.ts")> | undefined;

export function loadSdk(): Promise<typeof import("./sdk.ts")> {
  return (loaded ??= import("./sdk.ts"));
}
