// The shop's signing key (ES256 on P-256) for UCP: made on first use and kept in the SigningKey table, so every process
// and every restart signs with the same key. Only the public half (a JWK) ever leaves this module.
import crypto from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client.ts";

export interface PublicJwk {
  kid: string;
  kty: "EC";
  crv: "P-256";
  x: string;
  y: string;
  use: "sig";
  alg: "ES256";
}

export interface ShopKey {
  kid: string;
  privateKey: crypto.KeyObject;
  publicJwk: PublicJwk;
}

const CURRENT = "current";

/** The RFC 7638 thumbprint of an EC public key: a stable kid that names the key itself. */
function thumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return crypto.createHash("sha256").update(canonical).digest("base64url");
}

export class SigningKeys {
  private readonly prisma: PrismaClient;
  private loading: Promise<ShopKey> | undefined;
  private all: Promise<PublicJwk[]> | undefined;

  constructor(prisma: PrismaClient) {
    this.prisma = prisma;
  }

  /** The key that signs now, made (once, whichever process gets there first) when the shop has none. */
  current(): Promise<ShopKey> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  /** The public keys to publish (`signing_keys`): the current one and any older ones still kept. */
  published(): Promise<PublicJwk[]> {
    this.all ??= (async () => {
      await this.current();
      const rows = await this.prisma.signingKey.findMany({ orderBy: { createdAt: "desc" }, select: { publicJwk: true } });
      return rows.map((row) => row.publicJwk as unknown as PublicJwk);
    })().catch((error: unknown) => {
      this.all = undefined;
      throw error;
    });
    return this.all;
  }

  private async load(): Promise<ShopKey> {
    let row = await this.prisma.signingKey.findUnique({ where: { slot: CURRENT } });
    if (!row) {
      const { publicKey, privateKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
      const exported = publicKey.export({ format: "jwk" }) as { crv: string; kty: string; x: string; y: string };
      const kid = thumbprint(exported);
      const publicJwk: PublicJwk = { kid, kty: "EC", crv: "P-256", x: exported.x, y: exported.y, use: "sig", alg: "ES256" };
      const pem = privateKey.export({ format: "pem", type: "pkcs8" }) as string;
      // Two processes may race here: the unique slot lets one insert win, and both then read the winner.
      await this.prisma.signingKey.createMany({ data: [{ kid, slot: CURRENT, publicJwk: { ...publicJwk }, privateKey: pem }], skipDuplicates: true });
      row = await this.prisma.signingKey.findUniqueOrThrow({ where: { slot: CURRENT } });
    }
    return { kid: row.kid, privateKey: crypto.createPrivateKey(row.privateKey), publicJwk: row.publicJwk as unknown as PublicJwk };
  }
}
