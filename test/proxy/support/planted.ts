import { randomBytes } from "node:crypto";
import { ibanValid, luhnValid } from "../../../proxy/redaction/patterns.js";

/** Secrets planted in recorded traffic, each with where it was planted. */
export class Planted {
  readonly all: { where: string; value: string }[] = [];

  private add(where: string, value: string): string {
    this.all.push({ where, value });
    return value;
  }

  /** A fresh random value that no other planted value contains. */
  text(where: string): string {
    return this.add(where, `pl${this.all.length}q${randomBytes(8).toString("hex")}`);
  }

  /** A fresh secret of a known token format: `prefix`, then `length` characters of `alphabet`. */
  shaped(
    where: string,
    prefix: string,
    length: number,
    alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789",
  ): string {
    const bytes = randomBytes(length);
    const body = [...bytes].map((b) => alphabet[b % alphabet.length]).join("");
    return this.add(where, `${prefix}${body}`);
  }

  /** A fresh PEM private key block; what is planted (and must not leak) is its key material. */
  pem(where: string): string {
    const material = randomBytes(96).toString("base64");
    this.add(where, material);
    return `-----BEGIN ${"PRIVATE"} KEY-----\n${material.slice(0, 64)}\n${material.slice(64)}\n-----END PRIVATE KEY-----`;
  }

  /** A fresh numeric secret (10 digits). */
  number(where: string): number {
    const value = 9_000_000_000 + Math.floor(Math.random() * 900_000_000) + this.all.length;
    return Number(this.add(where, String(value)));
  }

  /** A fresh JSON Web Token. */
  jwt(where: string): string {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const token = `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: "42", jti: randomBytes(6).toString("hex") })}.${randomBytes(24).toString("base64url")}`;
    return this.add(where, token);
  }

  /** A fresh Luhn-valid card number, written with `separator` every four digits. */
  card(where: string, separator = ""): string {
    const body = `4${String(Math.floor(Math.random() * 1e14)).padStart(14, "0")}`;
    const check = [...Array(10).keys()].find((d) => luhnValid(`${body}${d}`)) ?? 0;
    const digits = `${body}${check}`;
    return this.add(where, digits.replace(/(\d{4})(?=\d)/g, `$1${separator}`));
  }

  /** A fresh checksum-valid German IBAN. */
  iban(where: string): string {
    const bban = String(Math.floor(Math.random() * 1e17)).padStart(18, "0");
    const check = [...Array(99).keys()].find((d) => ibanValid(`DE${String(d).padStart(2, "0")}${bban}`));
    return this.add(where, `DE${String(check).padStart(2, "0")}${bban}`);
  }
}

/** A Luhn-valid number turned invalid (last digit changed), for legal-variant tests. */
export function breakLuhn(digits: string): string {
  const last = Number(digits.at(-1));
  return `${digits.slice(0, -1)}${(last + 1) % 10}`;
}
