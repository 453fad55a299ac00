// Signing is chosen per outbox event by name: the signers are registered by who writes the events (Standard Webhooks for
// integrators; each agent protocol's door its own), and the dispatcher asks the event's signer for its headers.
interface SignInput {
  /** The outbox event's id: the message id receivers deduplicate on. */
  id: string;
  /** When this attempt is signed. */
  timestamp: Date;
  body: string;
  url: string;
  /** The event's key reference, resolved by the signer (e.g. "webhook-endpoint:<id>"). */
  keyRef: string;
}

export interface Signer {
  name: string;
  headers(input: SignInput): Promise<Record<string, string>>;
}

export class Signers {
  private readonly byName = new Map<string, Signer>();

  register(signer: Signer): void {
    if (this.byName.has(signer.name)) throw new Error(`A webhook signer named "${signer.name}" is registered twice.`);
    this.byName.set(signer.name, signer);
  }

  get(name: string): Signer | undefined {
    return this.byName.get(name);
  }
}
